import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runOn, runtime } from './helpers'

// Issue 9: a Rust panic never crosses into Node. A test-only hook (CODE_RUNTIME_TEST_HOOKS=1,
// read once per process, so it runs in a child) makes the Rust side panic when it receives
// a marker text: on the pool thread starting a program, or in the Node-API function taking a
// program, a binding's answer or an abort reason. Each must end as a rejection of run() or a
// `worker-exit` result, and the process must carry on.
const entry = join(__dirname, '..', 'index.js')
const EDGE = '@@code-runtime-test-panic:edge@@'
const ENGINE = '@@code-runtime-test-panic:engine@@'
const PANICKED = 'the engine failed unexpectedly and the run was stopped: '

const child = `
const { CodeRuntime } = require(${JSON.stringify(entry)})
const EDGE = ${JSON.stringify(EDGE)}, ENGINE = ${JSON.stringify(ENGINE)}
const rt = new CodeRuntime()
const tools = (fn) => [{ global: 'tools', functions: { call: fn } }]
const settle = (p) => p.then((r) => ({ resolved: r }), (e) => ({ rejected: String(e && e.message) }))
;(async () => {
  const out = {}
  out.engine = await settle(rt.run({ program: '// ' + ENGINE + '\\nreturn 1', bindings: [] }))
  out.start = await settle(rt.run({ program: '// ' + EDGE + '\\nreturn 1', bindings: [] }))
  out.resolution = await settle(rt.run({ program: 'console.log("before"); return await tools.call({})', bindings: tools(async () => EDGE) }))
  out.rejection = await settle(rt.run({ program: 'return await tools.call({})', bindings: tools(async () => { throw new Error(EDGE) }) }))
  const ac = new AbortController()
  const aborted = settle(rt.run({ program: 'await new Promise(() => setTimeout(() => {}, 60000))', bindings: [], signal: ac.signal }))
  setTimeout(() => ac.abort(EDGE), 50)
  out.abort = await aborted
  out.after = await settle(rt.run({ program: 'return 1 + 1', bindings: [] }))
  await rt.dispose()
  process.stdout.write(JSON.stringify(out))
})()
`

describe('panics become rejections or worker-exit failures', () => {
  test('every path from Node into Rust, forced to panic by the test hook', () => {
    const r = spawnSync(process.execPath, ['-e', child], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, CODE_RUNTIME_TEST_HOOKS: '1' },
    })
    expect(r.status, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.engine).toEqual({
      resolved: { logs: [], error: { kind: 'worker-exit', message: `${PANICKED}test hook: forced panic in a run on a pool thread` } },
    })
    expect(out.start.rejected).toContain('test hook: forced panic in start')
    for (const path of ['resolution', 'rejection'] as const) {
      expect(out[path].resolved.error.kind, path).toBe('worker-exit')
      expect(out[path].resolved.error.message, path).toMatch(/^the engine failed unexpectedly and the run was stopped: .*forced panic in settleCall/)
    }
    expect(out.abort.resolved.error.kind).toBe('worker-exit')
    expect(out.abort.resolved.error.message).toContain('forced panic in abort')
    expect(out.after).toEqual({ resolved: { logs: [], value: 2 } })
  })

  test('without the hook switched on, the markers are ordinary text', async () => {
    const rt = runtime()
    try {
      expect(await runOn(rt, `// ${ENGINE} ${EDGE}\nreturn 1`)).toEqual({ logs: [], value: 1 })
      const r = await rt.run({
        program: 'return await tools.call({})',
        bindings: [{ global: 'tools', functions: { call: async () => EDGE } }],
      })
      expect(r).toEqual({ logs: [], value: EDGE })
    } finally {
      await rt.dispose()
    }
  })
})
