// Cold-run latency: `return 1` run N times one after the other on a fresh sandbox each time,
// ours beside the worker-thread baseline. Prints p50/p99 for both and the ratio, as a JSON
// line and a markdown table. Needs the release build (`npm run build`).
//
//   node bench/cold.mjs [--runs 1000] [--quick]
import { createRequire } from 'node:module'
import { WorkerThreadRuntime } from './baselines/worker-thread.mjs'

const require = createRequire(import.meta.url)
const { CodeRuntime } = require('../index.js')

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const runsArg = args.indexOf('--runs')
const RUNS = runsArg >= 0 ? Number(args[runsArg + 1]) : quick ? 50 : 1000

const CASES = [
  { name: 'return 1', program: 'return 1', expect: { logs: [], value: 1 } },
  {
    name: 'console.log({ a: [1, 2, 3] })',
    program: 'console.log({ a: [1, 2, 3] })',
    expect: { logs: ['{ a: [ 1, 2, 3 ] }'], value: undefined },
    baselineSkip: true,
  },
]

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

async function measure(rt, program, expect, n) {
  const times = []
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint()
    const r = await rt.run({ program, bindings: [] })
    times.push(Number(process.hrtime.bigint() - t0) / 1e6)
    if (JSON.stringify(r.value) !== JSON.stringify(expect.value) || JSON.stringify(r.logs) !== JSON.stringify(expect.logs)) {
      throw new Error(`wrong answer from ${rt.isolation}: ${JSON.stringify(r)}`)
    }
  }
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 50), p99: percentile(times, 99) }
}

const ours = new CodeRuntime()
const baseline = new WorkerThreadRuntime()
const rows = []
for (const c of CASES) {
  await measure(ours, c.program, c.expect, Math.min(50, RUNS)) // warm-up: threads, caches
  const q = await measure(ours, c.program, c.expect, RUNS)
  let w = null
  if (!c.baselineSkip) {
    await measure(baseline, c.program, c.expect, 5)
    w = await measure(baseline, c.program, c.expect, quick ? 10 : RUNS)
  }
  const row = {
    scenario: `cold ${c.name}`,
    runs: RUNS,
    ours_p50_ms: +q.p50.toFixed(3),
    ours_p99_ms: +q.p99.toFixed(3),
    worker_p50_ms: w && +w.p50.toFixed(3),
    worker_p99_ms: w && +w.p99.toFixed(3),
    ratio_p50: w && +(w.p50 / q.p50).toFixed(1),
  }
  rows.push(row)
  console.log(JSON.stringify(row))
}
await ours.dispose()

console.log('\n| scenario | ours p50 / p99 (ms) | worker-thread p50 / p99 (ms) | ratio (p50) |')
console.log('|---|---|---|---|')
for (const r of rows) {
  const w = r.worker_p50_ms === null ? '—' : `${r.worker_p50_ms} / ${r.worker_p99_ms}`
  console.log(`| ${r.scenario} | ${r.ours_p50_ms} / ${r.ours_p99_ms} | ${w} | ${r.ratio_p50 === null ? '—' : r.ratio_p50 + '×'} |`)
}
