import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { allPrograms } from './differential/programs.ts'
import { normalize, referenceRun } from './differential/reference.mjs'
import { runOn, runtime } from './helpers'

// The console differential test: every program runs through CodeRuntime and through this
// Node inside a node:vm context whose console is a Node Console with the run's options
// (./differential/reference.mjs); the entries must be equal. The reference is Node 24:
// ./differential/node24.json holds what it printed (scripts/record-console-reference.mjs).
// On Node 24 the live reference (run in a plain Node process) must equal the recording (so the
// recording stays honest);
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
  if (onNode24) {
    // Live Node 24 in a plain process (a vitest worker's stack hooks change how errors print).
    const out = spawnSync(process.execPath, [join(__dirname, '..', 'scripts', 'record-console-reference.mjs'), '--print'], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'UTC', NODE_OPTIONS: '' },
      maxBuffer: 256 * 1024 * 1024,
    })
    if (out.status !== 0) throw new Error(`the live Node 24 reference failed: ${out.stderr}`)
    const printed = JSON.parse(out.stdout) as typeof recorded
    for (const p of programs) live.set(p.name, printed.expected[p.name])
  } else {
    for (const p of programs) live.set(p.name, normalize(await referenceRun(p.source)))
  }
}, 300_000)

/**
 * Programs that do not print as Node 24 does yet. Each is asserted to still differ, so fixing
 * one fails its test until it is removed from here.
 */
const KNOWN_DIFFERENCES = new Set<string>([])

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
