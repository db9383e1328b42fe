import { expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

// scripts/verify-pack.mjs: the packed tarballs hold exactly what users need, and the package
// installs, loads (require and import), runs a program with a binding, and type-checks
// under --strict in a fresh project outside this checkout.
test('the packed package installs and works in a fresh project', () => {
  const root = join(__dirname, '..')
  const out = spawnSync(process.execPath, [join(root, 'scripts', 'verify-pack.mjs')], { cwd: root, encoding: 'utf8', timeout: 170_000 })
  expect(out.status, out.stdout + out.stderr).toBe(0)
  expect(out.stdout).toMatch(/^verify-pack: ok /m)
}, 180_000)
