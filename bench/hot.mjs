// Latency of trivial runs while spinning programs occupy the pool: 4 programs spin for their
// whole compute budget while 20 `return 1` runs go one after the other; prints p50 / max.
//
//   node bench/hot.mjs
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { CodeRuntime } = require('../index.js')

const runtime = new CodeRuntime({ computeMs: 3000 })
await runtime.run({ program: 'return 1', bindings: [] })
const hot = Array.from({ length: 4 }, () => runtime.run({ program: 'for (;;) {}', bindings: [] }))
await new Promise((resolve) => setTimeout(resolve, 50))
const latencies = []
for (let i = 0; i < 20; i++) {
  const started = process.hrtime.bigint()
  const r = await runtime.run({ program: 'return 1', bindings: [] })
  if (r.value !== 1) throw new Error(`wrong answer: ${JSON.stringify(r)}`)
  latencies.push(Number(process.hrtime.bigint() - started) / 1e6)
}
latencies.sort((a, b) => a - b)
const row = { scenario: '20 trivial runs behind 4 hot loops', p50_ms: +latencies[10].toFixed(3), max_ms: +latencies[19].toFixed(3) }
console.log(JSON.stringify(row))
await Promise.all(hot)
await runtime.dispose()
