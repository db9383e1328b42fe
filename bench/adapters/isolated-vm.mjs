// Adapter: isolated-vm (V8 isolates), one fresh Isolate + context per run, executed on
// isolated-vm's own threads. Given the same limits as ours where the library has them: a
// heap limit and a timeout. Bindings are one `ivm.Reference` applied with `result: { promise: true }`, carrying JSON strings; the
// completion crosses as a JSON string. No TypeScript transform; `console.log` keeps each
// entry as its arguments' JSON (or the string itself), no Node-style rendering.
// Needs `node --no-node-snapshot` on Node 20+ (the harness starts its child process so).
// Interface: see ours.mjs.
import { requirePeer } from './peers.mjs'

const TIMEOUT_MS = 60_000
const HEAP_MB = 512

export async function create() {
  const { module: ivm, version } = requirePeer('isolated-vm')

  async function run(program, tools = {}) {
    const isolate = new ivm.Isolate({ memoryLimit: HEAP_MB })
    try {
      const context = await isolate.createContext()
      const host = new ivm.Reference((name, args) =>
        Promise.resolve()
          .then(() => tools[name](JSON.parse(args)))
          .then((v) => JSON.stringify(v)),
      )
      await context.global.set('__hostRef', host)
      const names = JSON.stringify(Object.keys(tools))
      const source =
        `const logs = [], show = (v) => (typeof v === 'string' ? v : JSON.stringify(v));` +
        ` { const r = globalThis.__hostRef; delete globalThis.__hostRef; const t = Object.create(null);` +
        ` const h = (n, a) => r.apply(undefined, [n, a], { result: { promise: true, copy: true } });` +
        ` for (const n of ${names}) t[n] = (a) => h(n, a === undefined ? 'null' : JSON.stringify(a)).then(JSON.parse);` +
        ` globalThis.tools = t; globalThis.console = { log: (...a) => logs.push(a.map(show).join(' ')) } }\n` +
        `(async () => {\n${program}\n})().then((v) => JSON.stringify({ v, logs }))`
      const { v, logs } = JSON.parse(await context.eval(source, { promise: true, timeout: TIMEOUT_MS, filename: 'program.js' }))
      return { value: v, logs }
    } finally {
      if (!isolate.isDisposed) isolate.dispose()
    }
  }

  return { name: 'isolated-vm', version, run, close: async () => {} }
}
