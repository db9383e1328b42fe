// `npm test`: the Rust tests (cargo) and the JavaScript tests (vitest), then one closing
// line `N passed, N failed` built from both runners' own counts.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const env = { ...process.env }
if (!env.CARGO_TARGET_DIR) env.CARGO_TARGET_DIR = join(homedir(), '.cache', 'code-runtime-target')

let passed = 0
let failed = 0

// cargo: sum the `test result:` lines of every test binary.
const cargo = spawnSync('cargo', ['test', '--release', '--no-fail-fast', '--workspace', '--exclude', 'code-runtime-quickjs', '--lib', '--tests'], {
  cwd: root,
  env,
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
})
process.stdout.write(cargo.stdout ?? '')
process.stderr.write(cargo.stderr ?? '')
let cargoCounted = false
for (const m of (cargo.stdout ?? '').matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)) {
  passed += Number(m[1])
  failed += Number(m[2])
  cargoCounted = true
}
if (cargo.status !== 0 && !cargoCounted) failed += 1

// vitest: read its JSON report.
const report = join(mkdtempSync(join(tmpdir(), 'code-runtime-vitest-')), 'report.json')
const vitest = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
  { cwd: root, env, stdio: 'inherit' },
)
try {
  const json = JSON.parse(readFileSync(report, 'utf8'))
  passed += json.numPassedTests
  failed += json.numFailedTests
  if (vitest.status !== 0 && json.numFailedTests === 0) failed += 1
} catch {
  failed += 1
}

console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || cargo.status !== 0 || vitest.status !== 0 ? 1 : 0)
