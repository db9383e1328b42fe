import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { allPrograms } from './differential/programs.ts'
import { normalize, referenceRun } from './differential/reference.mjs'
import { runOn, runtime } from './helpers'

// The console differential test: every program runs through CodeRuntime and through this
// Node inside a node:vm context whose console is a Node Console with the run's options
// (./differential/reference.mjs); the entries must be equal. The reference is Node 24:
// ./differential/node24.json holds what it printed (scripts/record-console-reference.mjs).
// On Node 24 the live reference must equal the recording (so the recording stays honest);
// on another Node the run is compared with the recording, and the live Node only where it
// agrees with Node 24 (the programs where they differ are listed by the last test).
// Normalised on both sides: durations, and each run of stack frames (frame positions are the
// stack traces' concern, not the console's).
const recorded = JSON.parse(readFileSync(new URL('./differential/node24.json', import.meta.url), 'utf8')) as {
  node: string
  expected: Record<string, { logs: string[]; error?: string }>
}
const onNode24 = process.version.startsWith('v24.')
const programs = allPrograms()
const rt = runtime()
afterAll(() => rt.dispose())

type Shape = ReturnType<typeof normalize>
const ours = new Map<string, Shape>()
const live = new Map<string, Shape>()
beforeAll(async () => {
  process.env.TZ = 'UTC'
  await Promise.all(programs.map(async (p) => ours.set(p.name, normalize(await runOn(rt, p.source)))))
  for (const p of programs) live.set(p.name, normalize(await referenceRun(p.source)))
}, 300_000)

/**
 * Programs that do not print as Node 24 does yet. Each is asserted to still differ, so fixing
 * one fails its test until it is removed from here.
 */
const KNOWN_DIFFERENCES = new Set<string>([
  "node24: dates: a date in a template",
  "node24: errors: Error shows its own stackTraceLimit",
  "node24: errors: [Error, RangeError]",
  "node24: errors: stackTraceLimit changed",
  "node24: errors: { E: Error }",
  "node24: format throws: console.log('%d', Object.create(null))",
  "node24: format throws: console.log('%f', Object.create(null))",
  "node24: format throws: console.log('%i', Object.create(null))",
  "node24: format throws: console.log('%j', [2n])",
  "node24: format throws: console.log('%j', { a: 1n })",
  "node24: format: %o of a function",
  "node24: subclass: new (class MyPromise extends Promise {})(() => {})",
  "node24: surrogates: %s and concatenation",
  "node24: surrogates: '\\ud800 lone'",
  "node24: surrogates: '\\udfff'",
  "node24: surrogates: 'a\\ud83d'",
  "node24: web: new URLSearchParams('a=1&b=2').entries()",
  "node24: web: new URLSearchParams('a=1').keys()",
  "random #0",
  "random #1",
  "random #15",
  "random #16",
  "random #18",
  "random #19",
  "random #20",
  "random #21",
  "random #22",
  "random #23",
  "random #25",
  "random #28",
  "random #29",
  "random #3",
  "random #30",
  "random #33",
  "random #34",
  "random #35",
  "random #4",
  "random #41",
  "random #44",
  "random #45",
  "random #47",
  "random #48",
  "random #50",
  "random #52",
  "random #53",
  "random #54",
  "random #55",
  "random #58",
  "random #59",
  "random #62",
  "random #65",
  "random #66",
  "random #67",
  "random #68",
  "random #71",
  "random #74",
  "random #75",
  "random #77",
  "random #8",
  "random #81",
  "random #83",
  "random #84",
  "random #86",
  "random #87",
  "random #89",
  "random #91",
  "random #92",
  "random #93",
  "random #95",
  "random #96",
  "random #98",
])

const written = programs.filter((p) => p.kind === 'written')
const random = programs.filter((p) => p.kind === 'random')

test('every known difference names a program', () => {
  const names = new Set(programs.map((p) => p.name))
  expect([...KNOWN_DIFFERENCES].filter((n) => !names.has(n))).toEqual([])
})

test('the corpus: at least 500 hand-written programs and 5,000 random values, all recorded', () => {
  expect(written.length).toBeGreaterThanOrEqual(500)
  expect(random.reduce((n, p) => n + p.values, 0)).toBeGreaterThanOrEqual(5000)
  expect(programs.filter((p) => !(p.name in recorded.expected)).map((p) => p.name)).toEqual([])
  expect(recorded.node).toMatch(/^v24\./)
})

describe.each([
  ['hand-written', written],
  ['random', random],
])('%s programs log exactly what Node 24 logs', (_, list) => {
  for (const p of list) {
    const check = KNOWN_DIFFERENCES.has(p.name) ? test.fails : test
    check(p.name, () => {
      const expected = recorded.expected[p.name]
      if (onNode24) expect(live.get(p.name)).toEqual(expected)
      expect(ours.get(p.name)).toEqual(expected)
    })
  }
})

test('the programs where this Node prints otherwise than Node 24', () => {
  const differing = programs.filter((p) => JSON.stringify(live.get(p.name)) !== JSON.stringify(recorded.expected[p.name]))
  if (onNode24) expect(differing).toEqual([])
  else console.info(`${differing.length} programs print differently on ${process.version}: ${differing.map((p) => p.name).join('; ')}`)
})
