// What a first use of Intl costs: per fresh Node process (an engine made and one `return 1`
// run first, so pool start-up is left out), the first run that formats and later runs, for a
// currency NumberFormat, a default DateTimeFormat and Number.prototype.toLocaleString.
//
//   node bench/intl.mjs [--procs 15] [dir …]     (dir: a build of this package; default: .)
//
// Per build and formatter, medians over the processes, in µs: `run` is the process CPU time
// of the whole run (one run at a time, so it is the run's own) beyond that of the same
// program when it never reaches Intl (so transpiling and compiling it are left out: what
// remains is Intl's load, use and the context's teardown); `load` touching `Intl` (the
// prelude read and evaluated into the context), `make` the constructor, `first`/`later` the
// first and a later format, each timed inside the program with performance.now(). `firstRun`
// is a process's first such run, `laterRun` its fourth (each pool thread has met the
// formatter by then). Not part of the README table.
import { fork } from 'node:child_process'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './lib.mjs'

const KINDS = {
  NumberFormat: [
    "new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })",
    (f, i) => `${f}.format(3.5 + ${i})`,
    '$3.50',
  ],
  DateTimeFormat: ['new Intl.DateTimeFormat()', (f, i) => `${f}.format(${i})`, '1/1/1970'],
  toLocaleString: ['null', (_, i) => `(1234.5 + ${i}).toLocaleString('en-US')`, '1,234.5'],
}

/** A program timing each step of one formatter's first use; answers [load, make, first, later] in µs. */
const program = ([make, format]) => `const T = []
let t = performance.now()
const m = () => { const n = performance.now(); T.push((n - t) * 1000); t = n }
void Intl; m()
const f = ${make}; m()
const a = ${format('f', 0)}; m()
for (let i = 1; i <= 10; i++) ${format('f', 'i')}
t = performance.now(); ${format('f', 11)}; m()
return [a, T]`

async function child(dir) {
  const api = createRequire(import.meta.url)(resolve(dir, 'index.js'))
  const rt = new api.CodeRuntime({ computeMs: 60_000 })
  const run = async (p) => {
    const c = process.cpuUsage()
    const r = await rt.run({ program: p, bindings: [] })
    if (r.error) throw new Error(JSON.stringify(r.error))
    const d = process.cpuUsage(c)
    return { cpu: (d.user + d.system) / 1000, value: r.value }
  }
  await run('return 1')
  await new Promise((r) => setTimeout(r, 200))
  const out = {}
  for (const [kind, spec] of Object.entries(KINDS)) {
    // Each kind in its own process: the first use of Intl is the one measured.
    if (kind !== process.env.INTL_BENCH_KIND) continue
    // The base: the same program never reaching Intl (its transpile and compile cost alike).
    const bases = []
    for (let i = 0; i < 5; i++) bases.push((await run(`if (globalThis.never) {\n${program(spec)}\n}\nreturn 1`)).cpu)
    const base = median(bases)
    const runs = []
    for (let i = 0; i < 4; i++) runs.push(await run(program(spec)))
    for (const r of runs) {
      if (!String(r.value[0]).startsWith(spec[2])) throw new Error(`${kind}: ${r.value[0]}`)
    }
    const row = (r) => ({ run: r.cpu - base, load: r.value[1][0], make: r.value[1][1], first: r.value[1][2], later: r.value[1][3] })
    out[kind] = { firstRun: row(runs[0]), laterRun: row(runs[3]) }
  }
  await rt.dispose()
  process.send(out)
}

if (process.env.INTL_BENCH_CHILD) {
  await child(process.env.INTL_BENCH_CHILD)
} else {
  const args = process.argv.slice(2)
  const at = args.indexOf('--procs')
  const procs = at >= 0 ? Number(args.splice(at, 2)[1]) : 15
  const dirs = args.length > 0 ? args : ['.']
  const script = fileURLToPath(import.meta.url)
  const spawnOne = (dir, kind) =>
    new Promise((res, rej) => {
      const c = fork(script, [], { env: { ...process.env, INTL_BENCH_CHILD: dir, INTL_BENCH_KIND: kind } })
      let got
      c.on('message', (m) => (got = m))
      c.on('exit', (code) => (code === 0 && got ? res(got[kind]) : rej(new Error(`child exited ${code}`))))
    })
  const results = new Map()
  // Builds and kinds interleaved, so machine noise hits them alike.
  for (let p = 0; p < procs; p++) {
    for (const dir of dirs) {
      for (const kind of Object.keys(KINDS)) {
        const r = await spawnOne(dir, kind)
        const key = `${dir} ${kind}`
        results.set(key, [...(results.get(key) ?? []), r])
      }
    }
  }
  for (const dir of dirs) {
    for (const kind of Object.keys(KINDS)) {
      const rs = results.get(`${dir} ${kind}`)
      const med = (which, k) => Math.round(median(rs.map((r) => r[which][k])) * (k === 'run' ? 1000 : 1))
      const line = (which) => Object.fromEntries(['run', 'load', 'make', 'first', 'later'].map((k) => [k, med(which, k)]))
      console.log(JSON.stringify({ build: dir, kind, procs, firstRun_us: line('firstRun'), laterRun_us: line('laterRun') }))
    }
  }
}
