// A/B: the same programs on two builds of this package in one process, alternating, so
// machine noise hits both. For "did this change make X slower": build the other commit in a
// second worktree (its own CARGO_TARGET_DIR), then
//
//   node bench/ab.mjs <dir of build A> <dir of build B> [--runs 2000] [program …]
//
// Prints, per program, the p50/p99 of each build and B/A. Without programs: cold `return 1`,
// the first object log, 2,000 sequential echo calls, a 5,000-way Promise.all, creating
// 100,000 errors, and a binding resolving 50,000 small objects (`tools.rows()`).
import { createRequire } from 'node:module'
import { resolve } from 'node:path'

const require = createRequire(import.meta.url)
const args = process.argv.slice(2)
const runsAt = args.indexOf('--runs')
const runs = runsAt >= 0 ? Number(args.splice(runsAt, 2)[1]) : 2000
const [dirA, dirB, ...programs] = args
if (!dirA || !dirB) {
  console.error('usage: node bench/ab.mjs <dir A> <dir B> [--runs N] [program …]')
  process.exit(2)
}
const DEFAULTS = [
  'return 1',
  'console.log({ a: [1, 2, 3] })',
  'for (let i = 0; i < 2000; i++) await tools.echo({ i }); return 1',
  'const ps = []; for (let i = 0; i < 5000; i++) ps.push(tools.echo({ i })); return (await Promise.all(ps)).length',
  'for (let i = 0; i < 1e5; i++) new Error("x"); return 1',
  'const rows = await tools.rows({}); let s = 0; for (const r of rows) s += r.v; return s',
]
// `tools.rows()` answers with 50,000 small objects (the harness's json-in row).
const ROWS = Array.from({ length: 50000 }, (_, i) => ({ id: i, name: 'item' + i, v: i % 100 }))
const bindings = [{ global: 'tools', functions: { echo: async (x) => x, rows: async () => ROWS } }]
const builds = [dirA, dirB].map((dir) => ({ dir, api: require(resolve(dir, 'index.js')) }))
const pct = (t, p) => [...t].sort((a, b) => a - b)[Math.min(t.length - 1, Math.floor(t.length * p))]

for (const program of programs.length > 0 ? programs : DEFAULTS) {
  const heavy = !/^return 1$|^console\.log/.test(program)
  const n = heavy ? Math.max(10, Math.round(runs / 100)) : runs
  const rts = builds.map((b) => new b.api.CodeRuntime({ computeMs: 60_000 }))
  const times = rts.map(() => [])
  const block = heavy ? 1 : 100
  for (let warm = 0; warm < Math.min(200, n); warm++) for (const rt of rts) await rt.run({ program, bindings })
  for (let done = 0, round = 0; done < n; done += block, round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0]
    for (const i of order) {
      for (let k = 0; k < block; k++) {
        const t = process.hrtime.bigint()
        const r = await rts[i].run({ program, bindings })
        if (r.error) throw new Error(`${builds[i].dir}: ${JSON.stringify(r.error)}`)
        times[i].push(Number(process.hrtime.bigint() - t) / 1e6)
      }
    }
  }
  await Promise.all(rts.map((rt) => rt.dispose()))
  const [a, b] = times
  console.log(
    JSON.stringify({
      program: program.length > 60 ? `${program.slice(0, 57)}...` : program,
      runs: a.length,
      a: { p50_ms: +pct(a, 0.5).toFixed(3), p99_ms: +pct(a, 0.99).toFixed(3) },
      b: { p50_ms: +pct(b, 0.5).toFixed(3), p99_ms: +pct(b, 0.99).toFixed(3) },
      b_over_a_p50: +(pct(b, 0.5) / pct(a, 0.5)).toFixed(3),
    }),
  )
}
