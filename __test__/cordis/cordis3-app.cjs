// A cordis 3 app (npm's `cordis` 3.18): the package loaded by name, the worker-thread
// backend's config keys, a consumer that injects `codeRuntime`, a reload and an unload; then
// the runtime provided the way cordis 3 services are (with its tracker), so that cordis hands
// it out wrapped in its Proxy and calls methods with `this` a Proxy of the instance.
;(async () => {
  const { loadByName, report, useRuntime, waitFor } = await import('./load-by-name.mjs')
  const { Context } = require('cordis')
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
  const ctx = new Context()
  const plugin = await loadByName('code-runtime-quickjs')
  report('shape', { name: plugin.name, provide: plugin.provide, apply: typeof plugin.apply })
  const fork = ctx.plugin(plugin, { computeMs: 60000, maxWallMs: 600000, maxOutputBytes: 67108864, maxOldGenerationSizeMb: 64 })
  await sleep(20)
  let uses = 0
  const consumer = ctx.inject(['codeRuntime'], async (inner) => {
    const used = await useRuntime(inner.codeRuntime)
    report(`consumer ${++uses}`, used)
  })
  await waitFor(() => uses === 1)
  const first = ctx.get('codeRuntime')
  const running = first.run({ program: 'await new Promise(() => setTimeout(() => {}, 60000))', bindings: [] })
  fork.update({ maxOutputBytes: 10 })
  report('reload ended the old runtime run', await running)
  const second = await waitFor(() => ctx.get('codeRuntime') !== first && ctx.get('codeRuntime'))
  await waitFor(() => uses === 2)
  report('reload made a new runtime', second !== first && second !== undefined)
  report('new config applies', await second.run({ program: 'console.log("abc"); return "xy"', bindings: [] }))
  fork.dispose()
  report('unloaded', await waitFor(() => ctx.get('codeRuntime') === undefined))
  await second.run({ program: 'return 1', bindings: [] }).then(() => report('disposed rejects', false), (e) => report('disposed rejects', e.message))
  try {
    ctx.plugin(plugin, { computeMS: 1 })
    await sleep(20)
    report('unknown key', ctx.get('codeRuntime') === undefined ? 'refused' : 'accepted')
  } catch (error) {
    report('unknown key', error.message)
  }
  consumer.dispose()

  // cordis 3's own service shape: provided with a tracker, handed out as a Proxy.
  const { CodeRuntime } = require('code-runtime-quickjs')
  const runtime = new CodeRuntime({ threads: 1 })
  let reported = false
  ctx.provide('tracked', runtime)
  ctx.plugin({ inject: ['tracked'], async apply(inner) {
    const proxied = inner.tracked
    report('tracked is a proxy', require('node:util').types.isProxy(proxied))
    report('through the proxy', await useRuntime(proxied))
    report('metrics through the proxy', proxied.metrics().runs.started)
    const session = proxied.openSession()
    await session.run({ program: 'const kept = 1', bindings: [] })
    report('session through the proxy', await session.run({ program: 'return kept + 1', bindings: [] }))
    await session.dispose()
    await proxied.dispose()
    report('dispose through the proxy', await runtime.run({ program: 'return 1', bindings: [] }).then(() => 'ran', (e) => e.message))
    reported = true
  } })
  await waitFor(() => reported)
  report('done', true)
  process.exit(0)
})().catch((error) => {
  console.error(error)
  process.exit(1)
})
