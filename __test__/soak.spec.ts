import { expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

// Issue 9's shorter soak: 20,000 mixed runs (bench/soak.mjs, four in flight at a time) on
// one runtime; every run settles with its expected kind and RSS grows less than 50 MB after
// warm-up. The 200,000-run version is `node --expose-gc bench/soak.mjs`.
test('20,000 mixed runs settle as expected and RSS stays flat after warm-up', () => {
  const soak = join(__dirname, '..', 'bench', 'soak.mjs')
  const out = spawnSync(process.execPath, ['--expose-gc', soak, '--runs', '20000', '--lanes', '4', '--max-growth-mb', '50'], {
    encoding: 'utf8',
    timeout: 420_000,
  })
  expect(out.stderr).toBe('')
  expect(out.status).toBe(0)
  const report = JSON.parse(out.stdout.trim().split('\n').pop() as string)
  expect(report.runs).toBe(20000)
  expect(report.growthMb).toBeLessThan(50)
}, 450_000)
