// Soak: many mixed runs on one runtime (plain, bindings, typed rejections, hot loops, throws,
// heap deaths, timers, web globals, aborts before and during a run, binding calls abandoned
// by the run's end), sampling RSS at the start, after warm-up and ten times after. After
// warm-up RSS must grow by less than the allowed amount; every run must settle with an
// expected kind.
//
//   node --expose-gc bench/soak.mjs [--runs 200000] [--quick] [--max-growth-mb 50] [--lanes 1]
//
// `--lanes N` keeps N runs in flight at once (each lane runs its share in sequence).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { CodeRuntime } = require('../index.js')

const args = process.argv.slice(2)
const opt = (name, dflt) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt)
const quick = args.includes('--quick')
const RUNS = opt('--runs', quick ? 3000 : 200000)
const MAX_GROWTH_MB = opt('--max-growth-mb', 50)
const WARMUP = Math.min(1000, Math.floor(RUNS / 3))
const LANES = Math.max(1, opt('--lanes', 1))

const tools = {
  echo: async (x) => x,
  fail: async () => Promise.reject(new Error('no')),
  // Never answers: the run ends by abort or by returning first (the call is abandoned).
  wait: () => new Promise(() => {}),
}
const bindings = [{ global: 'tools', functions: tools, errorClass: { name: 'ToolError', memberNameProperty: 'tool' } }]
const PROGRAMS = [
  ['ok', 'return 1'],
  ['ok', 'const r = await Promise.all([tools.echo({ a: 1 }), tools.echo([1, 2, 3])]); return r'],
  ['ok', 'try { await tools.fail({}) } catch (e) { return (e as any).tool }'],
  ['timeout', 'for (;;) {}'],
  ['exception', 'throw new Error("x")'],
  ['worker-exit', 'const a: any[] = []; for (;;) a.push("x".repeat(4096))'],
  ['ok', 'console.log("hello", { a: 1 }); await new Promise((r) => setTimeout(r, 1)); return new URL("http://x/y").pathname'],
  ['ok', 'return structuredClone({ m: new Map([[1, 2]]) }).m.size'],
  ['invalid-output', 'return new Date()'],
  // Long lines: the cap is crossed in a few hundred calls, well inside the compute budget
  // even on a loaded machine.
  ['output-limit', 'for (;;) console.log("flood ".repeat(50))'],
  ['abort', 'await tools.wait({ a: [1, 2, 3] })'],
  ['ok', 'tools.wait(1); tools.wait(2); return "left two calls pending"'],
  ['exception', 'await new Promise(() => {})'],
]
/** Programs aborted while they run (the others are aborted every 101st run, right away). */
const ABORT_MID_RUN = new Set(['await tools.wait({ a: [1, 2, 3] })'])

const runtime = new CodeRuntime({ computeMs: 20, maxWallMs: 2000, maxHeapMb: 8, maxOutputBytes: 65536 })
const rssMb = () => process.memoryUsage().rss / 1048576
globalThis.gc?.()
const startMb = rssMb()
const samples = []
const kinds = {}
const started = Date.now()
let baseline = 0
let loadTimeouts = 0
let next = 0
async function lane() {
  while (next < RUNS) {
    await one(next++)
  }
}
async function one(i) {
  const [expected, program] = PROGRAMS[i % PROGRAMS.length]
  const controller = new AbortController()
  const pending = runtime.run({ program, bindings, signal: controller.signal })
  const aborted = i % 101 === 0
  if (aborted) controller.abort('soak abort')
  else if (ABORT_MID_RUN.has(program)) setTimeout(() => controller.abort('soak abort mid-run'), 1)
  const result = await pending
  const kind = result.error ? result.error.kind : 'ok'
  // A timeout of a run that does not spin is the machine's load, not a leak: setup is charged
  // to the compute budget, and a starved process (this one runs under nice) can see a
  // binding answer arrive after the wall-clock ceiling. Counted, and bounded below.
  if (kind === 'timeout' && expected !== 'timeout') {
    loadTimeouts++
  } else if (kind !== expected && !(aborted && kind === 'abort')) {
    throw new Error(`run ${i}: expected ${expected}, got ${JSON.stringify({ ...result, logs: result.logs.length })}`)
  }
  kinds[kind] = (kinds[kind] ?? 0) + 1
  if (i === WARMUP || (i > WARMUP && i % Math.max(1, Math.floor(RUNS / 10)) === 0) || i === RUNS - 1) {
    globalThis.gc?.()
    const rss = rssMb()
    if (i === WARMUP) baseline = rss
    const sample = { run: i, rssMb: +rss.toFixed(1), ms: Date.now() - started }
    samples.push(sample)
    // Progress, one line a sample (the report is the last line).
    console.log(JSON.stringify({ sample, loadTimeouts }))
  }
}
await Promise.all(Array.from({ length: LANES }, lane))
samples.sort((a, b) => a.run - b.run)
await runtime.dispose()
globalThis.gc?.()
const end = rssMb()
const growth = end - baseline
const report = { runs: RUNS, loadTimeouts, seconds: +((Date.now() - started) / 1000).toFixed(1), kinds, startMb: +startMb.toFixed(1), afterWarmupMb: +baseline.toFixed(1), endMb: +end.toFixed(1), growthMb: +growth.toFixed(1), samples }
console.log(JSON.stringify(report))
if (loadTimeouts > RUNS / 1000) {
  console.error(`${loadTimeouts} runs that do not spin timed out`)
  process.exit(1)
}
if (growth > MAX_GROWTH_MB) {
  console.error(`RSS grew by ${growth.toFixed(1)} MB after warm-up (limit ${MAX_GROWTH_MB} MB)`)
  process.exit(1)
}
