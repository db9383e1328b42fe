// Adapter: quickjs-emscripten (QuickJS compiled to WebAssembly, release-sync variant), one
// fresh QuickJSRuntime + context per run, all on the Node main thread. Given the same limits
// as ours where the library has them: a memory limit and a deadline interrupt handler.
// Bindings cross as JSON strings through one host function that returns a QuickJS promise;
// the completion is read with `context.dump` (JSON). No TypeScript transform; `console.log`
// keeps each entry as its arguments' JSON (or the string itself), no Node-style rendering.
// Interface: see ours.mjs.
import { requirePeer } from './peers.mjs'

const TIMEOUT_MS = 60_000
const HEAP_BYTES = 512 * 1024 * 1024

export async function create() {
  const { module: qjs, version } = requirePeer('quickjs-emscripten')
  const QuickJS = await qjs.getQuickJS()

  function run(program, tools = {}) {
    const rt = QuickJS.newRuntime()
    rt.setMemoryLimit(HEAP_BYTES)
    rt.setInterruptHandler(qjs.shouldInterruptAfterDeadline(Date.now() + TIMEOUT_MS))
    const ctx = rt.newContext()
    let done = false
    // Deferreds of binding calls still pending: disposed when the run ends (abandoned), or a
    // live handle would outlast the runtime (QuickJS asserts on that).
    const open = new Set()
    const pump = () => {
      if (!done) rt.executePendingJobs().dispose()
    }
    const host = ctx.newFunction('__host', (nameHandle, argsHandle) => {
      const name = ctx.getString(nameHandle)
      const args = JSON.parse(ctx.getString(argsHandle))
      const deferred = ctx.newPromise()
      open.add(deferred)
      Promise.resolve()
        .then(() => tools[name](args))
        .then(
          (v) => {
            if (done) return
            const h = ctx.newString(JSON.stringify(v))
            deferred.resolve(h)
            h.dispose()
            open.delete(deferred)
            deferred.dispose()
            pump()
          },
          (e) => {
            if (done) return
            const h = ctx.newError(e instanceof Error ? e.message : String(e))
            deferred.reject(h)
            h.dispose()
            open.delete(deferred)
            deferred.dispose()
            pump()
          },
        )
      return deferred.handle
    })
    ctx.setProp(ctx.global, '__host', host)
    host.dispose()
    const names = JSON.stringify(Object.keys(tools))
    const source =
      `const logs = [], show = (v) => (typeof v === 'string' ? v : JSON.stringify(v));` +
      ` { const h = globalThis.__host; delete globalThis.__host; const t = Object.create(null);` +
      ` for (const n of ${names}) t[n] = (a) => h(n, a === undefined ? 'null' : JSON.stringify(a)).then(JSON.parse);` +
      ` globalThis.tools = t; globalThis.console = { log: (...a) => logs.push(a.map(show).join(' ')) } }\n` +
      `(async () => {\n${program}\n})().then((v) => ({ v, logs }))`
    const evaluated = ctx.evalCode(source, 'program.js')
    if (evaluated.error) {
      const message = JSON.stringify(ctx.dump(evaluated.error))
      evaluated.error.dispose()
      done = true
      for (const d of open) d.dispose()
      ctx.dispose()
      rt.dispose()
      return Promise.reject(new Error(`exception: ${message}`))
    }
    const settled = ctx.resolvePromise(evaluated.value)
    evaluated.value.dispose()
    pump()
    return settled.then((r) => {
      done = true
      try {
        if (r.error) {
          const message = JSON.stringify(ctx.dump(r.error))
          r.error.dispose()
          throw new Error(`exception: ${message}`)
        }
        // `dump` serializes with QuickJS's JSON.stringify from the host, outside any job:
        // stringifying 50,000 objects inside a QuickJS job (`.then(JSON.stringify)`) leaks
        // an object in this build, which aborts at JS_FreeRuntime (list_empty(&rt->gc_obj_list)).
        const { v, logs } = ctx.dump(r.value)
        r.value.dispose()
        return { value: v, logs }
      } finally {
        for (const d of open) d.dispose()
        ctx.dispose()
        rt.dispose()
      }
    })
  }

  return { name: 'quickjs-emscripten', version, run: async (program, tools) => run(program, tools), close: async () => {} }
}
