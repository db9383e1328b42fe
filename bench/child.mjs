// One adapter in its own process: the harness (bench/run.mjs) starts this as
//   node --expose-gc [adapter flags] bench/child.mjs <adapter>
// and asks it over IPC to measure scenarios, one request at a time. Each adapter living in
// its own process keeps their heaps, threads and RSS apart, and lets isolated-vm have the
// `--no-node-snapshot` it needs.
import { SCENARIOS } from './scenarios.mjs'

const name = process.argv[2]
const send = (m) => new Promise((resolve) => process.send(m, resolve))

let adapter
try {
  adapter = await (await import(`./adapters/${name}.mjs`)).create()
} catch (e) {
  await send({ type: 'ready', ok: false, error: e.message, code: e.code })
  process.exit(1)
}
await send({ type: 'ready', ok: true, version: adapter.version })

process.on('message', async (m) => {
  if (m.type === 'exit') {
    // `abandon`: runs may still be in flight (memory scenarios); just leave.
    if (!m.abandon) await adapter.close()
    process.exit(0)
  }
  if (m.type !== 'measure') return
  const scenario = SCENARIOS.find((s) => s.id === m.scenario)
  try {
    const result = await scenario.measure(adapter, m.params)
    await send({ type: 'result', id: m.id, ok: true, result })
  } catch (e) {
    await send({ type: 'result', id: m.id, ok: false, error: String(e && e.stack ? e.stack : e) })
  }
})
