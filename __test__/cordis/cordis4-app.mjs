// A cordis 4 app (argv[2]: `@deepseek-ai/cordis`, the agent's fork, or `cordis4`, npm's
// cordis 4 pre-release) loading the package by name as the agent's `cordis.yml` does, with
// the worker-thread backend's config keys, then a consumer that injects `codeRuntime`;
// then a reload with a new config and an unload.
import { loadByName, report, useRuntime, waitFor } from './load-by-name.mjs'

const { Context } = await import(process.argv[2])
const ctx = new Context()
for (const name of ['code-runtime-quickjs', 'code-runtime-quickjs/cordis']) {
  const plugin = await loadByName(name)
  report(`${name}: shape`, { name: plugin.name, provide: plugin.provide, apply: typeof plugin.apply })
}
const plugin = await loadByName('code-runtime-quickjs')
const fiber = await ctx.plugin(plugin, { computeMs: 60000, maxWallMs: 600000, maxOutputBytes: 67108864, maxOldGenerationSizeMb: 64 })
let uses = 0
const consumer = await ctx.inject(['codeRuntime'], async (inner) => {
  const used = await useRuntime(inner.codeRuntime)
  report(`consumer ${++uses}`, used)
})
await waitFor(() => uses === 1)
const first = ctx.get('codeRuntime')
report('first metrics', first.metrics().runs.started >= 0)
const running = first.run({ program: 'await new Promise(() => setTimeout(() => {}, 60000))', bindings: [] })
await fiber.update({ maxOutputBytes: 10 })
report('reload ended the old runtime run', await running)
const second = await waitFor(() => ctx.get('codeRuntime') !== first && ctx.get('codeRuntime'))
await waitFor(() => uses === 2)
report('reload made a new runtime', second !== first && second !== undefined)
report('new config applies', await second.run({ program: 'console.log("abc"); return "xy"', bindings: [] }))
await fiber.dispose()
report('unloaded', await waitFor(() => ctx.get('codeRuntime') === undefined))
await second.run({ program: 'return 1', bindings: [] }).then(() => report('disposed rejects', false), (e) => report('disposed rejects', e.message))
try {
  await ctx.plugin(plugin, { maxHeapMb: 32, maxOldGenerationSizeMb: 64 })
  report('bad config', 'accepted')
} catch (error) {
  report('bad config', error.message)
}
try {
  await ctx.plugin(plugin, { computeMS: 1 })
  report('unknown key', 'accepted')
} catch (error) {
  report('unknown key', error.message)
}
await consumer.dispose?.()
report('done', true)
process.exit(0)
