// Adapter: code-runtime-quickjs through its public API (`CodeRuntime` from index.js).
//
// Every adapter exports `create()` resolving to
//   { name, version, run(program, tools?) => Promise<{ value, logs }>, close() }
// where `program` is plain JavaScript run as the body of an async function, `tools` maps
// member names to async host functions (the program sees them as the global `tools`), and a
// failed run rejects (the harness turns that into an error row).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

export async function create() {
  const { CodeRuntime } = require('../../index.js')
  const { version } = require('../../package.json')
  const runtime = new CodeRuntime()
  return {
    name: 'ours',
    version,
    /** Runs TypeScript (the others get the same programs with the types removed). */
    typescript: true,
    async run(program, tools = {}) {
      const r = await runtime.run({ program, bindings: [{ global: 'tools', functions: tools }] })
      if (r.error) throw new Error(`${r.error.kind}: ${r.error.message}`)
      return { value: r.value, logs: r.logs }
    },
    /** Runs `program` under a compute budget of `computeMs`; resolves with the raw result. */
    async runWithBudget(program, computeMs) {
      const budgeted = new CodeRuntime({ computeMs, threads: 1 })
      try {
        return await budgeted.run({ program, bindings: [] })
      } finally {
        await budgeted.dispose()
      }
    },
    /** A runner over a runtime of its own with `threads` pool threads. */
    async withThreads(threads) {
      const own = new CodeRuntime({ threads })
      return {
        async run(program, tools = {}) {
          const r = await own.run({ program, bindings: [{ global: 'tools', functions: tools }] })
          if (r.error) throw new Error(`${r.error.kind}: ${r.error.message}`)
          return { value: r.value, logs: r.logs }
        },
        close: () => own.dispose(),
      }
    },
    close: () => runtime.dispose(),
  }
}
