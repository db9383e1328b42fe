import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { CORPUS } from './messages-corpus'
import recorded from './messages-expected.json'
import { runtime } from './helpers'

// The engine's messages in V8's words: every program of the corpus fails the same way through
// CodeRuntime as through V8 (`Name: message`, the line a model reads first), V8 being Node 24,
// the contract's reference. What V8 says is recorded (messages-expected.json), and checked
// against the Node running this test (Node 20 words some messages differently: those carry
// their Node 20 text too) and, when NODE24 names a Node 24 binary, against that Node.
//
// The programs whose messages cannot match yet, each with what CodeRuntime says and why.
// The test fails when one of them starts to match: take it off the list then.
const EXCEPTIONS: Record<string, { ours: string; why: string }> = {
  'const a = null; (a ?? {}).x()': {
    ours: 'TypeError: (intermediate value).x is not a function',
    why: 'V8 prints a binary or logical operation in a callee as written, `(a ?? {})`; the callee text is built by the parser from postfix expressions only, and anything else is V8\'s "(intermediate value)"',
  },
  'const a = {}; (a || a).x()': {
    ours: 'TypeError: (intermediate value).x is not a function',
    why: 'as above: `(a || a)` is a logical operation',
  },
}

// Syntax errors V8 places elsewhere than CodeRuntime does, with where CodeRuntime places
// them and why. The test fails when one of them starts to match.
const POSITION_EXCEPTIONS: Record<string, { ours: string; why: string }> = {}

const script = fileURLToPath(new URL('../scripts/v8-messages.cjs', import.meta.url))
const programs = recorded.programs as Record<string, { v8: string; node20?: string; at?: string }>
const v8Lines = (node: string): string[] =>
  JSON.parse(execFileSync(node, [script], { input: JSON.stringify(CORPUS), maxBuffer: 1 << 26 }).toString())

const rt = runtime()
afterAll(() => rt.dispose())

/**
 * The `Name: message` part of a failed run's message: its stack without the frames, or a
 * syntax error's message without the `(line:column)` it ends with (`at`).
 */
async function failure(program: string): Promise<{ header: string; at?: string }> {
  const result = await rt.run({ program, bindings: [{ global: 'tools', functions: { echo: async (args) => args as never } }] })
  if (!result.error) return { header: '(no error)' }
  const message = result.error.message
  const syntax = /^(SyntaxError: [^\n]*) \((\d+:\d+)\)$/.exec(message)
  if (syntax) return { header: syntax[1], at: syntax[2] }
  const at = message.indexOf('\n    at ')
  return { header: at < 0 ? message : message.slice(0, at) }
}
const ours = async (program: string) => (await failure(program)).header

describe('engine messages read as V8 writes them', () => {
  test('the corpus holds at least 200 failing programs, each recorded', () => {
    expect(new Set(CORPUS).size).toBe(CORPUS.length)
    expect(CORPUS.length).toBeGreaterThanOrEqual(200)
    expect(Object.keys(programs).sort()).toEqual([...CORPUS].sort())
    for (const program of CORPUS) expect(programs[program].v8, program).not.toBe('(no error)')
    for (const program of Object.keys(EXCEPTIONS)) expect(CORPUS).toContain(program)
  })

  test.each(CORPUS)('%s', async (program) => {
    const exception = EXCEPTIONS[program]
    if (exception) {
      expect(await ours(program)).toBe(exception.ours)
      expect(exception.ours).not.toBe(programs[program].v8)
    } else {
      expect(await ours(program)).toBe(programs[program].v8)
    }
  })

  const placed = CORPUS.filter((program) => programs[program].at)
  test('syntax errors are many, and V8 places each', () => {
    expect(CORPUS.filter((program) => programs[program].v8.startsWith('SyntaxError') && !/JSON|RegExp|regular expression/.test(programs[program].v8 + program)).length).toBeGreaterThanOrEqual(40)
    expect(placed.length).toBeGreaterThanOrEqual(40)
    for (const program of Object.keys(POSITION_EXCEPTIONS)) expect(placed).toContain(program)
  })

  test.each(placed)('%s is reported where V8 reports it', async (program) => {
    const exception = POSITION_EXCEPTIONS[program]
    const at = (await failure(program)).at ?? '(none)'
    if (exception) {
      expect(at).toBe(exception.ours)
      expect(exception.ours).not.toBe(programs[program].at)
    } else {
      expect(at).toBe(programs[program].at)
    }
  })

  const major = Number(process.versions.node.split('.')[0])
  test.runIf(major === 20 || major === 24)(`the recorded lines are what this Node (${process.version}) says`, () => {
    const lines = v8Lines(process.execPath)
    const want = CORPUS.map((program) => (major === 20 ? programs[program].node20 : undefined) ?? programs[program].v8)
    expect(lines).toEqual(want)
  })

  test.runIf(!!process.env.NODE24)('the recorded lines are what the Node 24 in NODE24 says', () => {
    expect(v8Lines(process.env.NODE24!)).toEqual(CORPUS.map((program) => programs[program].v8))
  })
})
