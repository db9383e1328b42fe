// Host calls after a pause: 5,000 sequential echo calls and a 5,000-way Promise.all, each run
// measured right after the previous one and after the process idled for `--pause` ms. The
// harness measures every rep after such a pause (the other runtimes measure in between), and
// a pause changes how threads are placed and how much memory V8 keeps ready; this isolates
// that effect for ours.
//
//   node bench/pause.mjs [--pause 300] [--runs 9]
import { createRequire } from 'node:module'
import { median, parseArgs } from './lib.mjs'

const require = createRequire(import.meta.url)
const { CodeRuntime } = require('../index.js')
const args = parseArgs(process.argv.slice(2))
const pause = Number(args.pause ?? 300)
const runs = Number(args.runs ?? 9)
const calls = 5000

const PROGRAMS = {
  'sequential calls': `let s = 0; for (let i = 0; i < ${calls}; i++) s += (await tools.echo({ i })).i; return s`,
  'Promise.all calls': `const r = await Promise.all(Array.from({ length: ${calls} }, (_, i) => tools.echo({ i }))); return r.reduce((s, x) => s + x.i, 0)`,
}
const expected = (calls * (calls - 1)) / 2
const bindings = [{ global: 'tools', functions: { echo: async (x) => x } }]
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const runtime = new CodeRuntime()
try {
  for (const [name, program] of Object.entries(PROGRAMS)) {
    const perCall = { 0: [], [pause]: [] }
    for (const gap of [0, pause]) {
      await runtime.run({ program, bindings })
      for (let i = 0; i < runs; i++) {
        if (gap) await sleep(gap)
        const t0 = performance.now()
        const r = await runtime.run({ program, bindings })
        const us = ((performance.now() - t0) * 1000) / calls
        if (r.value !== expected) throw new Error(`${name}: expected ${expected}, got ${JSON.stringify(r)}`)
        perCall[gap].push(us)
      }
    }
    const line = [0, pause].map((gap) => `after ${gap} ms: ${median(perCall[gap]).toFixed(2)} µs`).join(', ')
    console.log(`${name}, per call (median of ${runs}): ${line}`)
  }
} finally {
  await runtime.dispose()
}
