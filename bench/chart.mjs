// Hand-written SVG bar chart of a harness result (bench/results/latest.json): one group per
// scenario and metric, one bar per other runtime, showing its figure divided by ours on a
// log scale (right of 1×: ours is ahead by that factor; left: the other is faster).
//
//   node bench/chart.mjs [bench/results/latest.json] [bench/results/chart.svg]
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { fmt } from './lib.mjs'

const COLORS = { 'worker-thread': '#8c8c8c', 'quickjs-emscripten': '#e07b39', 'isolated-vm': '#3a78c2' }
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export function renderChart(result) {
  const others = result.adapters.map((a) => a.name).filter((n) => n !== 'ours')
  const row = (id, name) => result.rows.find((r) => r.scenario === id && r.adapter === name)
  const groups = []
  result.scenarios.forEach((s) => {
    for (const m of s.metrics) {
      const ours = row(s.id, 'ours')
      const bars = []
      for (const name of others) {
        const r = row(s.id, name)
        if (!r) continue
        if (r.error || !ours || ours.error) bars.push({ name, error: true })
        else bars.push({ name, value: r[m.key], ratio: m.higher ? ours[m.key] / r[m.key] : r[m.key] / ours[m.key], capped: r.comparable === false, note: r.note })
      }
      const oursText = !ours ? '—' : ours.error ? 'error' : `${fmt(ours[m.key])} ${m.unit}`
      const target = m.target !== undefined ? ` (target ≤${fmt(m.target)})` : ''
      // A scenario only ours runs has nothing to compare: left out.
      if (bars.length === 0) continue
      groups.push({ title: `${s.num}. ${s.short ?? s.title}${m.label ? ` — ${m.label}` : ''}`, ours: `ours ${oursText}${target}`, unit: m.unit, bars })
    }
  })

  const ratios = groups.flatMap((g) => g.bars.filter((b) => b.ratio > 0).map((b) => b.ratio))
  const lo = Math.min(0.1, 10 ** Math.floor(Math.log10(Math.min(...ratios, 1))))
  const hi = Math.max(10, 10 ** Math.ceil(Math.log10(Math.max(...ratios, 1))))
  const W = 1100
  const LEFT = 300
  const PLOT = 380
  const BAR = 11
  const GAP = 4
  const x = (r) => LEFT + ((Math.log10(r) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * PLOT
  const out = []
  let y = 74
  for (const g of groups) {
    const h = Math.max(2, g.bars.length) * (BAR + GAP) + 14
    out.push(`<text x="8" y="${y + 12}" class="t">${esc(g.title)}</text>`)
    out.push(`<text x="8" y="${y + 26}" class="s">${esc(g.ours)}</text>`)
    g.bars.forEach((b, k) => {
      const by = y + 4 + k * (BAR + GAP)
      const color = COLORS[b.name] ?? '#666'
      if (b.error) {
        out.push(`<text x="${x(1) + 4}" y="${by + BAR - 2}" class="v">${esc(b.name)}: error</text>`)
        return
      }
      const x0 = Math.min(x(1), x(b.ratio))
      const w = Math.max(1, Math.abs(x(b.ratio) - x(1)))
      const style = b.capped ? `fill="${color}" fill-opacity="0.35" stroke="${color}" stroke-dasharray="3 2"` : `fill="${color}"`
      out.push(`<rect x="${x0.toFixed(1)}" y="${by}" width="${w.toFixed(1)}" height="${BAR}" ${style}><title>${esc(`${b.name}: ${fmt(b.value)} ${g.unit}${b.note ? ` (${b.note})` : ''}`)}</title></rect>`)
      const ratio = b.ratio >= 1 ? `ours ${fmt(b.ratio)}× ahead` : `${fmt(1 / b.ratio)}× ahead of ours`
      const label = `${b.name} ${fmt(b.value)} ${g.unit} · ${ratio}${b.capped ? ' (capped*)' : ''}`
      out.push(`<text x="${LEFT + PLOT + 10}" y="${by + BAR - 2}" class="v" fill="${color}">${esc(label)}</text>`)
    })
    out.push(`<line x1="8" x2="${W - 8}" y1="${y + h}" y2="${y + h}" class="sep"/>`)
    y += h + 6
  }
  const H = y + 40
  const ticks = []
  for (let e = Math.log10(lo); e <= Math.log10(hi) + 1e-9; e++) {
    const r = 10 ** e
    const tx = x(r).toFixed(1)
    ticks.push(`<line x1="${tx}" x2="${tx}" y1="64" y2="${y}" class="${r === 1 ? 'one' : 'grid'}"/>`)
    ticks.push(`<text x="${tx}" y="60" class="tick" text-anchor="middle">${r >= 1 ? fmt(r) : `1/${fmt(1 / r)}`}×</text>`)
  }
  const m = result.machine
  const legend = others
    .map((n, i) => `<rect x="${LEFT + i * 170}" y="${H - 28}" width="11" height="11" fill="${COLORS[n] ?? '#666'}"/><text x="${LEFT + i * 170 + 16}" y="${H - 18}" class="s">${esc(n)}</text>`)
    .join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif">
<style>
.h{font-size:15px;font-weight:600}.t{font-size:12px;font-weight:600}.s{font-size:11px;fill:#444}.v{font-size:11px}
.tick{font-size:10px;fill:#555}.grid{stroke:#e4e4e4}.one{stroke:#222;stroke-width:1.5}.sep{stroke:#f0f0f0}
</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="8" y="20" class="h">code-runtime-quickjs (ours) vs other sandboxes: their figure ÷ ours, log scale (lower is better for every metric)</text>
<text x="8" y="38" class="s">${esc(`Right of 1×: ours is ahead by that factor; left: the other is faster. ${m.cpu}, ${m.cores} cores, Node ${m.node}, ${result.date.slice(0, 10)}; ${result.command}`)}</text>
${ticks.join('\n')}
${out.join('\n')}
${legend}
<text x="8" y="${H - 18}" class="s">* capped: fewer runs than ours (see table)</text>
</svg>
`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const input = process.argv[2] ?? fileURLToPath(new URL('./results/latest.json', import.meta.url))
  const output = process.argv[3] ?? fileURLToPath(new URL('./results/chart.svg', import.meta.url))
  writeFileSync(output, renderChart(JSON.parse(readFileSync(input, 'utf8'))))
}
