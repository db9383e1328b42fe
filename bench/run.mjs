// The benchmark harness: every scenario of bench/scenarios.mjs, ours (the public CodeRuntime
// API) beside the worker-thread baseline, and beside quickjs-emscripten and isolated-vm with
// --peers (installed by `npm run bench:peers`). Each adapter runs in its own child process
// (bench/child.mjs); the harness alternates them rep by rep, rotating the order, so machine
// noise hits all of them; the figure kept is the median over reps (latencies: percentiles
// over all samples). Every answer is checked: a wrong one is an error row and exit code 1.
//
// Prints one JSON line per scenario and adapter, then a markdown table. A full run writes
// latest.json and chart.svg outside the checkout (<tmpdir>/code-runtime-bench/), or into
// bench/results/ (the figures the README shows, tracked) with --write-results, or into
// --out <dir> (any run, --quick too).
//
//   node bench/run.mjs [--peers] [--quick] [--only cold,echo-seq] [--reps N]
//                      [--runs N] [--calls N] [--no-write] [--write-results] [--out <dir>]
//
//   --quick     correctness only: tiny counts, one rep, no peers, nothing written (seconds)
//   --peers     add quickjs-emscripten and isolated-vm (fails if bench/peers is not installed)
//   --only      comma-separated scenario ids (see --list)
//   --reps      measurements per adapter and scenario
//   --runs      total sequential runs of the cold scenarios
//   --calls     calls of the echo scenarios
import { fork } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderChart } from './chart.mjs'
import { fmt, median, parseArgs } from './lib.mjs'
import { SCENARIOS } from './scenarios.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const args = parseArgs(process.argv.slice(2))
const quick = !!args.quick
const mode = quick ? 'quick' : 'full'
const withPeers = !!args.peers && !quick
const write = !args['no-write'] && (typeof args.out === 'string' || (!quick && !args.only))

if (args.list) {
  for (const s of SCENARIOS) console.log(`${s.id.padEnd(16)} ${s.title}`)
  process.exit(0)
}

/** Adapters in table order; `flags` are extra node flags of the adapter's child process. */
const ADAPTERS = [
  { name: 'ours', flags: [] },
  { name: 'worker-thread', flags: [] },
  ...(withPeers
    ? [
        { name: 'quickjs-emscripten', flags: [] },
        { name: 'isolated-vm', flags: ['--no-node-snapshot'] },
      ]
    : []),
]

const only = typeof args.only === 'string' ? args.only.split(',') : null
const scenarios = only ? SCENARIOS.filter((s) => only.includes(s.id)) : SCENARIOS
if (only && scenarios.length !== only.length) {
  console.error(`unknown scenario in --only ${args.only}; known: ${SCENARIOS.map((s) => s.id).join(', ')}`)
  process.exit(2)
}

// ---------------------------------------------------------------- child processes

const MEASURE_TIMEOUT_MS = 10 * 60_000

function spawnChild(adapter) {
  const child = fork(join(here, 'child.mjs'), [adapter.name], {
    execArgv: ['--expose-gc', ...adapter.flags],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  // Whatever a child prints goes to our stderr: stdout stays JSON lines and the table.
  child.stdout.on('data', (d) => process.stderr.write(d))
  child.stderr.on('data', (d) => process.stderr.write(d))
  let nextId = 0
  const pending = new Map()
  let exited = null
  let onReady
  const ready = new Promise((resolve, reject) => (onReady = { resolve, reject }))
  child.on('message', (m) => {
    if (m.type === 'ready') {
      if (m.ok) onReady.resolve(m.version)
      else onReady.reject(new Error(m.error))
      return
    }
    const p = pending.get(m.id)
    if (!p) return
    pending.delete(m.id)
    clearTimeout(p.timer)
    if (m.ok) p.resolve(m.result)
    else p.reject(new Error(m.error))
  })
  child.on('exit', (code, signal) => {
    exited = `${adapter.name} child exited (${signal ?? `code ${code}`})`
    onReady.reject(new Error(exited))
    for (const p of pending.values()) {
      clearTimeout(p.timer)
      p.reject(new Error(exited))
    }
    pending.clear()
  })
  return ready.then((version) => ({
    name: adapter.name,
    version,
    measure(scenario, params) {
      if (exited) return Promise.reject(new Error(exited))
      return new Promise((resolve, reject) => {
        const id = nextId++
        const timer = setTimeout(() => {
          pending.delete(id)
          child.kill('SIGKILL')
          reject(new Error(`${adapter.name}: ${scenario} took longer than ${MEASURE_TIMEOUT_MS / 1000} s`))
        }, MEASURE_TIMEOUT_MS)
        pending.set(id, { resolve, reject, timer })
        child.send({ type: 'measure', id, scenario, params })
      })
    },
    exit(abandon = false) {
      if (exited) return Promise.resolve()
      return new Promise((resolve) => {
        child.once('exit', resolve)
        child.send({ type: 'exit', abandon })
      })
    },
  }))
}

// ---------------------------------------------------------------- parameters

function paramsFor(scenario, adapter) {
  const cap = scenario.caps?.[adapter]
  const p = { ...scenario.params[mode], ...(cap?.[mode] ?? {}) }
  if (args.reps !== undefined) p.reps = Number(args.reps)
  if (args.calls !== undefined && 'calls' in p) p.calls = Number(args.calls)
  if (args.runs !== undefined && 'runs' in p && scenario.id.startsWith('cold')) {
    // --runs is the total, spread over the reps (10 reps unless --reps says otherwise).
    const total = Number(args.runs)
    if (args.reps === undefined) p.reps = Math.max(1, Math.min(10, Math.floor(total / 10)))
    p.runs = Math.max(1, Math.round(total / p.reps))
  }
  // Caps (and their notes) describe the full counts.
  const capped = !!cap?.full && !quick
  return { params: p, note: capped ? cap.note : null, comparable: capped ? cap.comparable !== false : true }
}

// ---------------------------------------------------------------- run

const machine = {
  cpu: os.cpus()[0]?.model?.trim() ?? 'unknown',
  cores: os.cpus().length,
  memory_gb: +(os.totalmem() / 2 ** 30).toFixed(1),
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  node: process.version,
  loadavg_at_start: os.loadavg().map((x) => +x.toFixed(2)),
}
const command = `node ${relative(process.cwd(), fileURLToPath(import.meta.url)) || 'bench/run.mjs'} ${process.argv.slice(2).join(' ')}`.trim()
const started = new Date()

const longLived = new Map()
const versions = {}
async function child(adapter, fresh) {
  if (fresh) return spawnChild(adapter)
  if (!longLived.has(adapter.name)) longLived.set(adapter.name, spawnChild(adapter))
  return longLived.get(adapter.name)
}

// Fail early and clearly when a peer is not installed.
if (withPeers) {
  for (const a of ADAPTERS.slice(2)) {
    try {
      versions[a.name] = (await child(a, false)).version
    } catch (e) {
      console.error(e.message)
      console.error('install the peers with `npm run bench:peers`')
      process.exit(2)
    }
  }
}

const rows = []
let failed = false
for (const s of scenarios) {
  const adapters = ADAPTERS.filter((a) => !s.only || s.only.includes(a.name))
  const plan = new Map(adapters.map((a) => [a.name, paramsFor(s, a.name)]))
  const reps = Math.max(...[...plan.values()].map((x) => x.params.reps))
  const got = new Map(adapters.map((a) => [a.name, { results: [], error: null }]))
  for (let rep = 0; rep < reps; rep++) {
    // Rotate the order every rep so no adapter always goes first (or right after another).
    const order = adapters.map((_, i) => adapters[(i + rep) % adapters.length])
    for (const a of order) {
      const g = got.get(a.name)
      const { params } = plan.get(a.name)
      if (g.error || rep >= params.reps) continue
      try {
        const c = await child(a, s.fresh)
        versions[a.name] ??= c.version
        try {
          g.results.push(await c.measure(s.id, { ...params, rep }))
        } finally {
          if (s.fresh) await c.exit(true)
        }
      } catch (e) {
        g.error = e.message
      }
    }
  }
  for (const a of adapters) {
    const g = got.get(a.name)
    const { params, note, comparable } = plan.get(a.name)
    const row = { scenario: s.id, adapter: a.name }
    if (g.error) {
      row.error = g.error
      failed = true
    } else {
      const metrics = s.summarize
        ? s.summarize(g.results.flatMap((r) => r.samples))
        : Object.fromEntries(s.metrics.map((m) => [m.key, median(g.results.map((r) => r[m.key]))]))
      for (const m of s.metrics) row[m.key] = +metrics[m.key].toPrecision(4)
      if (a.name === 'ours' && !quick) {
        const targets = s.metrics.filter((m) => m.target !== undefined)
        if (targets.length) row.meets_target = targets.every((m) => row[m.key] <= m.target)
      }
    }
    const { reps: r, rep, ...counts } = params
    Object.assign(row, { reps: r, params: counts })
    if (note) row.note = note
    if (!comparable) row.comparable = false
    rows.push(row)
    console.log(JSON.stringify(row))
  }
}
await Promise.all([...longLived.values()].map((p) => p.then((c) => c.exit(false), () => {})))

// ---------------------------------------------------------------- report

const adapterNames = ADAPTERS.map((a) => a.name)
const rowOf = (id, name) => rows.find((r) => r.scenario === id && r.adapter === name)
const cell = (s, r) => {
  if (!r) return '—'
  if (r.error) return `**error**`
  const units = new Set(s.metrics.map((m) => m.unit))
  const text =
    units.size === 1
      ? `${s.metrics.map((m) => fmt(r[m.key])).join(' / ')} ${s.metrics[0].unit}`
      : s.metrics.map((m) => `${fmt(r[m.key])} ${m.unit}`).join(' / ')
  return `${text}${r.note ? ' *' : ''}`
}
/** A metric marked `higher` (runs/s) is better the higher it is; every other, the lower. */
function bestOther(s) {
  const { key: head, higher } = s.metrics[0]
  const ours = rowOf(s.id, 'ours')
  let best = null
  for (const name of adapterNames.slice(1)) {
    const r = rowOf(s.id, name)
    if (!r || r.error || r.comparable === false) continue
    if (!best || (higher ? r[head] > best[head] : r[head] < best[head])) best = r
  }
  if (!best || !ours || ours.error) return null
  return { adapter: best.adapter, value: best[head], ratio: higher ? ours[head] / best[head] : best[head] / ours[head] }
}

const summary = scenarios.map((s, i) => {
  const b = bestOther(s)
  return { id: s.id, num: s.num, title: s.title, short: s.short, metrics: s.metrics, best_other: b && { ...b, ratio: +b.ratio.toPrecision(3) } }
})

const lines = []
lines.push(`| # | scenario | ${adapterNames.join(' | ')} | target (ours) | best other ÷ ours |`)
lines.push(`|---|---|${adapterNames.map(() => '---:').join('|')}|---|---|`)
scenarios.forEach((s, i) => {
  const ours = rowOf(s.id, 'ours')
  const units = new Set(s.metrics.map((m) => m.unit))
  const target = s.metrics.some((m) => m.target !== undefined)
    ? (units.size === 1
        ? `${s.metrics.map((m) => (m.target === undefined ? '—' : `≤${fmt(m.target)}`)).join(' / ')} ${s.metrics[0].unit}`
        : s.metrics.map((m) => (m.target === undefined ? '—' : `≤${fmt(m.target)} ${m.unit}`)).join(' / ')) +
      (ours && 'meets_target' in ours ? (ours.meets_target ? ' ✅' : ' ❌') : '')
    : '—'
  const b = summary[i].best_other
  const ratio = b ? `${fmt(b.ratio)}× (${b.adapter})` : '—'
  lines.push(`| ${s.num} | ${s.title} | ${adapterNames.map((n) => cell(s, rowOf(s.id, n))).join(' | ')} | ${target} | ${ratio} |`)
})
const notes = rows.filter((r) => r.note)
const table = [
  ...lines,
  '',
  '"best other ÷ ours": the best non-ours figure of the headline metric (first one) divided by ours (for runs/s, ours divided by it); above 1× ours is ahead.',
  '',
  ...notes.map((r) => `- \\* ${r.adapter}, scenario ${scenarios.find((s) => s.id === r.scenario).num}: ${r.note}`),
  ...rows.filter((r) => r.error).map((r) => `- **error** ${r.adapter}, ${r.scenario}: ${r.error.split('\n')[0]}`),
].join('\n')
console.log('\n' + table)

if (write) {
  const outDir = typeof args.out === 'string' ? args.out : args['write-results'] ? join(here, 'results') : join(os.tmpdir(), 'code-runtime-bench')
  mkdirSync(outDir, { recursive: true })
  machine.loadavg_at_end = os.loadavg().map((x) => +x.toFixed(2))
  const result = {
    machine,
    date: started.toISOString(),
    seconds: Math.round((Date.now() - started.getTime()) / 1000),
    command: args.peers ? 'npm run bench -- --peers' : 'npm run bench',
    argv: command,
    adapters: adapterNames.map((n) => ({ name: n, version: versions[n] ?? null })),
    scenarios: summary,
    rows,
    table,
  }
  writeFileSync(join(outDir, 'latest.json'), JSON.stringify(result, null, 2) + '\n')
  writeFileSync(join(outDir, 'chart.svg'), renderChart(result))
  console.error(`wrote ${relative(process.cwd(), join(outDir, 'latest.json'))} and chart.svg`)
}
process.exit(failed ? 1 : 0)
