import { formatWithOptions } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { INSPECT_CASES } from './inspect-corpus'
import { runOn, runtime } from './helpers'

// The differential test of issue 5: every corpus case builds the arguments of one
// console.log call; the sandbox's log line must equal what Node's own console.log prints
// for the same values (util.formatWithOptions with console's inspect options), computed here.
const OPTIONS = { depth: 4, maxArrayLength: 100, maxStringLength: 10000 }
const rt = runtime()
afterAll(() => rt.dispose())

const sandbox = new Map<string, unknown>()
beforeAll(async () => {
  await Promise.all(
    INSPECT_CASES.map(async (c) => {
      const program = `const __args: any[] = (() => {\n${c.source}\n})();\nconsole.log(...__args)`
      sandbox.set(c.name, await runOn(rt, program))
    }),
  )
}, 120_000)

/**
 * Cases the sandbox does not print as Node does yet (issue 5 stays open until this is
 * empty). Each is asserted to still differ, so fixing one fails its test until it is
 * removed from here.
 * - Map/Set iterators: their remaining entries are not readable from JavaScript yet.
 */
const KNOWN_DIFFERENCES = new Set([
  'iterator: map entries',
  'iterator: map keys and values',
  'iterator: set values',
  'iterator: set entries',
  'iterator: map iterator partially consumed',
])

describe('console.log prints exactly what Node prints', () => {
  test('the corpus has at least 150 cases', () => {
    expect(INSPECT_CASES.length).toBeGreaterThanOrEqual(150)
  })

  test('every known difference names a corpus case', () => {
    const names = new Set(INSPECT_CASES.map((c) => c.name))
    expect([...KNOWN_DIFFERENCES].filter((n) => !names.has(n))).toEqual([])
  })

  for (const c of INSPECT_CASES) {
    const check = KNOWN_DIFFERENCES.has(c.name) ? test.fails : test
    check(c.name, () => {
      const args = new Function(c.source)() as unknown[]
      const expected = formatWithOptions(OPTIONS, ...args)
      expect(sandbox.get(c.name)).toEqual({ logs: [expected] })
    })
  }
})
