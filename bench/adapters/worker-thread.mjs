// Adapter: the design code-runtime-quickjs replaces, one fresh Node Worker per run
// (bench/baselines/worker-thread.mjs). Interface: see ours.mjs.
import { WorkerThreadRuntime } from '../baselines/worker-thread.mjs'

export async function create() {
  const runtime = new WorkerThreadRuntime()
  return {
    name: 'worker-thread',
    version: `node ${process.version}`,
    async run(program, tools = {}) {
      const r = await runtime.run({ program, bindings: [{ global: 'tools', functions: tools }] })
      if (r.error) throw new Error(`${r.error.kind}: ${r.error.message}`)
      return { value: r.value, logs: r.logs }
    },
    close: () => runtime.dispose(),
  }
}
