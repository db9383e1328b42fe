// Host-call cost: 5,000 sequential awaited echo calls and a 5,000-way Promise.all of echo
// calls, ours beside the worker-thread baseline. Prints µs per call (median of several
// repetitions), as JSON lines and a markdown table. Needs the release build.
//
//   node bench/bindings.mjs [--calls 5000] [--reps 5] [--quick]
import { createRequire } from 'node:module'
import { WorkerThreadRuntime } from './baselines/worker-thread.mjs'

const require = createRequire(import.meta.url)
const { CodeRuntime } = require('../index.js')

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const opt = (name, dflt) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt)
const CALLS = opt('--calls', quick ? 200 : 5000)
const REPS = opt('--reps', quick ? 1 : 9)

const echo = async (x) => x
const bindings = [{ global: 'tools', functions: { echo } }]
const SCENARIOS = [
  {
    name: `${CALLS} sequential awaited echo calls`,
    program: `let sum = 0; for (let i = 0; i < ${CALLS}; i++) sum += (await tools.echo({ i })).i; return sum`,
  },
  {
    name: `${CALLS}-way Promise.all of echo calls`,
    program: `const r = await Promise.all(Array.from({ length: ${CALLS} }, (_, i) => tools.echo({ i }))); return r.reduce((s, x) => s + x.i, 0)`,
  },
]
const expected = (CALLS * (CALLS - 1)) / 2

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function perCall(rt, program) {
  const t0 = process.hrtime.bigint()
  const r = await rt.run({ program, bindings })
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / CALLS
  if (r.value !== expected) throw new Error(`wrong answer from ${rt.isolation}: ${JSON.stringify(r).slice(0, 300)}`)
  return us
}

const ours = new CodeRuntime()
const baseline = new WorkerThreadRuntime()
const rows = []
for (const s of SCENARIOS) {
  // Warm up both, then alternate them so drift on a shared machine hits both alike; the
  // ratio is the median of the per-pair ratios.
  await perCall(ours, s.program)
  await perCall(baseline, s.program)
  const q = []
  const w = []
  const ratios = []
  for (let rep = 0; rep < REPS; rep++) {
    q.push(await perCall(ours, s.program))
    w.push(await perCall(baseline, s.program))
    ratios.push(w[w.length - 1] / q[q.length - 1])
  }
  const row = {
    scenario: s.name,
    ours_us_per_call: +median(q).toFixed(2),
    worker_us_per_call: +median(w).toFixed(2),
    ratio: +median(ratios).toFixed(1),
  }
  rows.push(row)
  console.log(JSON.stringify(row))
}
await ours.dispose()

console.log('\n| scenario | ours (µs/call) | worker-thread (µs/call) | ratio |')
console.log('|---|---|---|---|')
for (const r of rows) console.log(`| ${r.scenario} | ${r.ours_us_per_call} | ${r.worker_us_per_call} | ${r.ratio}× |`)
