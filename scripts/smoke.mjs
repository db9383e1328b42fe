// Load-and-run smoke for other Node versions (`.ci/run` runs it under Node 18 and 22): loads
// the package by require and by import, runs a program that calls a binding, an aborted run,
// a session, the codemode executor and the command line, then disposes. Prints
// `smoke: N passed, N failed (Node vX)` and exits non-zero on any failure.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
let passed = 0
let failed = 0

async function check(name, fn) {
  try {
    await fn()
    passed++
  } catch (error) {
    failed++
    console.error(`smoke: ${name} FAILED: ${error && error.stack ? error.stack : error}`)
  }
}

const cjs = require(join(root, 'index.js'))
const esm = await import(join(root, 'index.js'))
const { CodeRuntime } = cjs
const runtime = new CodeRuntime({ threads: 1 })

await check('require and import give the same CodeRuntime', () => assert.equal(esm.CodeRuntime, CodeRuntime))
await check('a TypeScript program calls a binding', async () => {
  const result = await runtime.run({
    program: 'const r: { n: number } = await tools.double({ n: 21 }); console.log("got", r.n); return r.n',
    bindings: [{ global: 'tools', functions: { double: async ({ n }) => ({ n: n * 2 }) } }],
  })
  assert.deepEqual(result, { logs: ['got 42'], value: 42 })
})
await check('an aborted run ends as abort', async () => {
  const controller = new AbortController()
  const running = runtime.run({ program: 'for (;;) {}', bindings: [], signal: controller.signal })
  setTimeout(() => controller.abort('stop'), 20)
  assert.deepEqual(await running, { logs: [], error: { kind: 'abort', message: 'stop' } })
})
await check('a session keeps its globals', async () => {
  const session = runtime.openSession()
  await session.run({ program: 'const kept = 5', bindings: [] })
  assert.deepEqual(await session.run({ program: 'return kept + 1', bindings: [] }), { logs: [], value: 6 })
  await session.dispose()
})
await check('the codemode executor runs code', async () => {
  const { QuickJSExecutor } = require(join(root, 'codemode.js'))
  const executor = new QuickJSExecutor({ runtime })
  assert.deepEqual(await executor.execute('async () => await codemode.add(2, 3)', { add: async (a, b) => a + b }), { result: 5, logs: [] })
  await executor.dispose()
})
await check('the command line runs a program', () => {
  const out = spawnSync(process.execPath, [join(root, 'bin', 'code-runtime-quickjs.mjs'), 'run', join(root, 'examples', 'demo.ts'), '--bindings', join(root, 'examples', 'tools.mjs'), '--json'], { encoding: 'utf8', timeout: 60_000 })
  assert.equal(out.status, 0, out.stderr)
  assert.equal(JSON.parse(out.stdout).value.grandTotalCents, 51347)
})
await check('dispose ends the runtime', async () => {
  await runtime.dispose()
  await assert.rejects(runtime.run({ program: 'return 1', bindings: [] }), /disposal|disposed/)
})

console.log(`smoke: ${passed} passed, ${failed} failed (Node ${process.version})`)
process.exitCode = failed > 0 ? 1 : 0
