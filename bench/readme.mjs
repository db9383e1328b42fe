// Copies the machine line and the table of bench/results/latest.json into README.md,
// between the `<!-- bench:begin -->` and `<!-- bench:end -->` markers.
//
//   node bench/readme.mjs
import { readFileSync, writeFileSync } from 'node:fs'

const readmeUrl = new URL('../README.md', import.meta.url)
const r = JSON.parse(readFileSync(new URL('./results/latest.json', import.meta.url), 'utf8'))
const m = r.machine
const load = (xs) => (xs ? xs[0] : '?')
const versions = r.adapters.map((a) => `${a.name} ${a.version}`).join(', ')
const block = [
  '<!-- bench:begin -->',
  `Measured ${r.date.slice(0, 10)} with \`${r.command}\` (${Math.round(r.seconds / 60)} min): ${m.cpu}, ${m.cores} cores, ` +
    `${Math.round(m.memory_gb)} GB, ${m.os}, Node ${m.node}; ${versions}. Load average ${load(m.loadavg_at_start)} at the start, ` +
    `${load(m.loadavg_at_end)} at the end (the VM is shared).`,
  '',
  r.table,
  '<!-- bench:end -->',
].join('\n')
const readme = readFileSync(readmeUrl, 'utf8')
const re = /<!-- bench:begin -->[\s\S]*?<!-- bench:end -->/
if (!re.test(readme)) throw new Error('README.md has no <!-- bench:begin --> … <!-- bench:end --> block')
writeFileSync(readmeUrl, readme.replace(re, block))
