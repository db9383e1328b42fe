import { expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

test('2,000 mixed runs settle as expected and RSS stays flat after warm-up', () => {
  const soak = join(__dirname, '..', 'bench', 'soak.mjs')
  const out = spawnSync(process.execPath, ['--expose-gc', soak, '--runs', '2000', '--max-growth-mb', '50'], {
    encoding: 'utf8',
    timeout: 120_000,
  })
  expect(out.stderr).toBe('')
  expect(out.status).toBe(0)
  const report = JSON.parse(out.stdout.trim().split('\n').pop() as string)
  expect(report.runs).toBe(2000)
  expect(report.growthMb).toBeLessThan(50)
})
