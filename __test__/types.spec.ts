import { expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

test('index.d.ts type-checks a program using every exported name under --strict', () => {
  const root = join(__dirname, '..')
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  const out = spawnSync(
    process.execPath,
    [tsc, '--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--lib', 'es2022,esnext.disposable,dom', '--types', 'node', join(__dirname, 'types', 'usage.ts')],
    { cwd: root, encoding: 'utf8', timeout: 60_000 },
  )
  expect(out.stdout + out.stderr).toBe('')
  expect(out.status).toBe(0)
})

test('codemode.d.ts: QuickJSExecutor is an Executor of @cloudflare/codemode; examples/codemode.ts and examples/session.ts type-check', () => {
  // --skipLibCheck: the package's own .d.ts files refer to the Workers types (`cloudflare:workers`,
  // `DurableObjectState`), which a Node project does not have; the types it exports are intact.
  const root = join(__dirname, '..')
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  const files = [join(__dirname, 'types', 'codemode.mts'), join(root, 'examples', 'codemode.ts'), join(root, 'examples', 'session.ts')]
  const out = spawnSync(
    process.execPath,
    [tsc, '--strict', '--noEmit', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--lib', 'es2022,esnext.disposable,dom', '--types', 'node', ...files],
    { cwd: root, encoding: 'utf8', timeout: 60_000 },
  )
  expect(out.stdout + out.stderr).toBe('')
  expect(out.status).toBe(0)
})
