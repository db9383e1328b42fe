/**
 * Every program of the console differential test (`console-differential.spec.ts`), by name:
 * the console.log corpus (`inspect-corpus.ts`, as one `console.log(...args)` each), the
 * console-methods corpus (`console-corpus.ts`), the Node-24 corpus (`node24-corpus.ts`) and
 * the seeded random values (`random-values.ts`). Each source is the body of an async
 * function, plain JavaScript valid in QuickJS and in Node.
 */
import { CONSOLE_CASES } from '../console-corpus.ts'
import { INSPECT_CASES } from '../inspect-corpus.ts'
import { NODE24_CASES } from './node24-corpus.ts'
import { randomPrograms } from './random-values.ts'

export interface Program {
  name: string
  source: string
  /** `written` (hand-written, one case each) or `random` (many values each) */
  kind: 'written' | 'random'
  /** values it logs (1 for a written case) */
  values: number
}

export function allPrograms(): Program[] {
  const written = [
    ...INSPECT_CASES.map((c) => ({ name: `log: ${c.name}`, source: `const __args = (() => {\n${c.source}\n})();\nconsole.log(...__args)` })),
    ...CONSOLE_CASES.map((c) => ({ name: `${c.method}: ${c.name}`, source: c.source })),
    ...NODE24_CASES.map((c) => ({ name: `node24: ${c.name}`, source: c.source })),
  ].map((p) => ({ ...p, kind: 'written' as const, values: 1 }))
  const random = randomPrograms().map((p) => ({ ...p, kind: 'random' as const }))
  return [...written, ...random]
}
