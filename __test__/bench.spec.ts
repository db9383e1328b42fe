import { expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
// @ts-expect-error: a plain ES module of the harness, no typings
import { SCENARIOS } from '../bench/scenarios.mjs'

type Scenario = { id: string; only?: string[]; metrics: { key: string }[] }
const scenarios = SCENARIOS as Scenario[]

// The benchmark harness in quick mode: tiny counts, ours beside the worker-thread baseline,
// every answer checked. It must exit 0 and print one JSON line per scenario for ours.
test('bench/run.mjs --quick runs every scenario with correct answers', () => {
  const out = spawnSync(process.execPath, [join(__dirname, '..', 'bench', 'run.mjs'), '--quick'], {
    encoding: 'utf8',
    timeout: 60_000,
  })
  expect(out.stderr).toBe('')
  expect(out.status).toBe(0)
  const rows = out.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
  expect(scenarios.length).toBeGreaterThanOrEqual(10)
  for (const s of scenarios) {
    for (const adapter of s.only ?? ['ours', 'worker-thread']) {
      const row = rows.find((r) => r.scenario === s.id && r.adapter === adapter)
      expect(row, `${s.id} / ${adapter}`).toBeDefined()
      expect(row.error).toBeUndefined()
      for (const m of s.metrics) expect(Number.isFinite(row[m.key]), `${s.id} / ${adapter} / ${m.key}`).toBe(true)
    }
  }
  expect(out.stdout).toContain('| # | scenario | ours | worker-thread |')
}, 60_000)

// A run writes its results outside the checkout unless asked: `npm run bench` leaves the
// tracked files as they were.
test('bench/run.mjs writes results where it is told, never into tracked files by default', () => {
  const root = join(__dirname, '..')
  const status = () => spawnSync('git', ['status', '--porcelain', '--untracked-files=all', 'bench'], { cwd: root, encoding: 'utf8' }).stdout
  const before = status()
  const out = mkdtempSync(join(tmpdir(), 'code-runtime-bench-test-'))
  const run = spawnSync(process.execPath, [join(root, 'bench', 'run.mjs'), '--quick', '--only', 'cold', '--out', out], { cwd: root, encoding: 'utf8', timeout: 60_000 })
  expect(run.status, run.stderr).toBe(0)
  expect(JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8')).scenarios).toBeDefined()
  expect(existsSync(join(out, 'chart.svg'))).toBe(true)
  expect(status()).toBe(before)
  const source = readFileSync(join(root, 'bench', 'run.mjs'), 'utf8')
  expect(source).toContain("args['write-results'] ? join(here, 'results') : join(os.tmpdir(), 'code-runtime-bench')")
}, 60_000)
