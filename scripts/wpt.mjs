// Runs the Web Platform Tests files of the runtime's web globals through CodeRuntime and
// through plain Node, and prints how many subtests pass in each, per area.
//
//   node scripts/wpt.mjs [--wpt DIR] [--area NAME] [--file PART] [--diff] [--check] [--json]
//
// The WPT files are read from DIR (default ../shared/wpt beside the checkout, or $WPT_DIR),
// never copied. Each test file, with its `// META: script=` dependencies and the JSON
// resources it fetches, becomes one program: scripts/wpt-harness.js (a testharness.js
// compatible harness of our own) runs them as classic scripts and logs every subtest's
// verdict. --diff lists the subtests Node passes and CodeRuntime does not; --check runs the
// files in Node under WPT's own resources/testharness.js and under ours and lists verdicts
// that differ (a check of the harness, not of the runtime).
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, posix, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')

/** The areas, in the order they print, and the test files each covers (paths from the WPT root). */
export const AREAS = [
  ['URL parsing', (f) => /^url\/(url-constructor|url-origin|url-statics-|url-tojson|historical)/.test(f)],
  ['URL host parsing (IDNA, toASCII)', (f) => /^url\/(IdnaTestV2|toascii)/.test(f)],
  ['URL setters', (f) => /^url\/url-setters/.test(f)],
  ['URLSearchParams', (f) => /^url\/(urlsearchparams-|urlencoded-parser|url-searchparams)/.test(f)],
  ['other encodings', (f) => /^encoding\/(textdecoder-fatal-single-byte|textdecoder-labels|api-replacement-encodings|api-invalid-label|textdecoder-utf16-surrogates|textencoder-constructor-non-utf)/.test(f)],
  ['TextEncoder/TextDecoder (UTF-8)', (f) => /^encoding\//.test(f)],
  ['structuredClone', (f) => /^html\/webappapis\/structured-clone\//.test(f)],
  ['atob/btoa, crypto, queueMicrotask, timers, performance.now', (f) => /^(html\/webappapis\/(atob|microtask-queuing|timers)\/|hr-time\/|WebCryptoAPI\/(getRandomValues|randomUUID))/.test(f)],
  ['crypto.subtle.digest', (f) => /^WebCryptoAPI\/digest\//.test(f)],
  ['AbortController/AbortSignal', (f) => /^dom\/abort\//.test(f)],
  ['Event/EventTarget/CustomEvent', (f) => /^dom\/events\//.test(f)],
] // prettier-ignore

/** The area a test file belongs to, or null (Blob, Headers: globals the runtime does not have). */
export function areaOf(file) {
  for (const [name, covers] of AREAS) if (covers(file)) return name
  return null
}

/** The WPT folder: an explicit one, $WPT_DIR, or ../shared/wpt beside the checkout. */
export function wptDir(explicit) {
  const candidates = [explicit, process.env.WPT_DIR, resolve(root, '../shared/wpt'), '/work/shared/wpt']
  return candidates.find((d) => d && existsSync(join(d, 'resources/testharness.js'))) ?? null
}

function walk(dir, base = dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) walk(full, base, out)
    else if (name.endsWith('.any.js')) out.push(relative(base, full).split('\\').join('/'))
  }
  return out
}

/** The test files of the covered areas. */
export function testFiles(dir) {
  return walk(dir).filter((f) => areaOf(f) !== null)
}

/**
 * A script's text for indirect eval as if it were a classic script: top-level (column 0)
 * `let`/`const` become `var` and `class X` becomes `var X = class X`, so later scripts see them.
 */
function classic(text) {
  return text.replace(/^(?:const|let)(\s)/gm, 'var$1').replace(/^class ([A-Za-z_$][\w$]*)/gm, 'var $1 = class $1')
}

/** A test file's program: its scripts in order and the resources it fetches, around the harness. */
export function programOf(dir, file, { harness = 'ours' } = {}) {
  const source = readFileSync(join(dir, file), 'utf8')
  const folder = posix.dirname(file)
  const scripts = []
  for (const m of source.matchAll(/^\/\/ META: script=(.+)$/gm)) {
    const ref = m[1].trim()
    const path = ref.startsWith('/') ? ref.slice(1) : posix.normalize(posix.join(folder, ref))
    scripts.push([path, classic(readFileSync(join(dir, path), 'utf8'))])
  }
  scripts.push([file, classic(source)])
  const files = {}
  for (const [, text] of scripts) {
    for (const m of text.matchAll(/["'`]([^"'`\s]+\.json)["'`]/g)) {
      const path = posix.normalize(posix.join(folder, m[1]))
      if (existsSync(join(dir, path))) files[m[1]] = readFileSync(join(dir, path), 'utf8')
    }
  }
  const timeoutMs = /^\/\/ META: timeout=long$/m.test(source) ? 20000 : 5000
  const data = `const __wpt = { files: ${JSON.stringify(files)}, scripts: ${JSON.stringify(scripts)} }\n`
  if (harness === 'wpt') {
    // WPT's own harness (shell environment), reporting in our log format.
    const th = readFileSync(join(dir, 'resources/testharness.js'), 'utf8')
    return `${data}${readFileSync(join(here, 'wpt-harness.js'), 'utf8')}
globalThis.self = globalThis
;(0, eval)(${JSON.stringify(th)})
add_result_callback((t) => console.log('\\u0001WPT' + JSON.stringify([t.status, String(t.name), t.message === null ? '' : String(t.message).slice(0, 300)])))
let __end
const __ended = new Promise((r) => (__end = r))
add_completion_callback(() => __end())
await __wptHarness.run(__wpt.files, __wpt.scripts, ${timeoutMs}, { own: false, ended: __ended })
`
  }
  return `${data}${readFileSync(join(here, 'wpt-harness.js'), 'utf8')}
await __wptHarness.run(__wpt.files, __wpt.scripts, ${timeoutMs})
`
}

/** Subtest verdicts from a program's log lines: Map name → status (0 is a pass). */
function verdicts(lines) {
  const results = new Map()
  let harness = null
  let ended = false
  for (const line of lines) {
    if (line.startsWith('\u0001WPT-END')) ended = true
    else if (line.startsWith('\u0001WPT-HARNESS')) harness = JSON.parse(line.slice(12))
    else if (line.startsWith('\u0001WPT')) {
      const [status, name, message] = JSON.parse(line.slice(4))
      let key = name
      for (let i = 2; results.has(key); i++) key = `${name} (#${i})`
      results.set(key, { status, message })
    }
  }
  return { results, harness, ended }
}

/** Runs a program in a child Node process (the same text, as an async function's body). */
export function runInNode(program, wallMs = 60000) {
  return new Promise((resolveRun) => {
    const started = Date.now()
    const child = spawn(process.execPath, ['-'], { stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d))
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), wallMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      const v = verdicts(out.split('\n'))
      v.ms = Date.now() - started
      if (code !== 0 && v.harness === null) v.harness = `node exited with ${code}: ${err.split('\n').find((l) => /Error/.test(l)) ?? err.slice(0, 200)}`
      resolveRun(v)
    })
    child.stdin.end(`;(async () => {\n${program}\n})().then(() => 0, (e) => { console.log('\\u0001WPT-HARNESS' + JSON.stringify(String(e))); return 1 }).then((code) => process.stdout.write('', () => process.exit(code)))\n`)
  })
}

/** Runs a program through CodeRuntime. */
export async function runInRuntime(rt, program) {
  const started = Date.now()
  const r = await rt.run({ program, bindings: [] })
  const v = verdicts(r.logs)
  v.ms = Date.now() - started
  if (r.error && v.harness === null) v.harness = `${r.error.kind}: ${r.error.message.split('\n')[0]}`
  return v
}

async function pool(items, width, work) {
  const out = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await work(items[i], i)
      }
    }),
  )
  return out
}

/**
 * Subtests that need globals the runtime does not have, inside covered files: fetch's Request,
 * Response and FormData (url/; the structured-clone battery reads every cloned Blob and File
 * back through a Response, and takes a Response as its non-serializable platform object),
 * ReadableStream, ImageBitmap and OffscreenCanvas. Not counted.
 */
const FOREIGN = [
  [/^url\//, /^(request|response)\.formData\(\)|\bFormData\b/],
  [
    /^html\/webappapis\/structured-clone\//,
    new RegExp(
      [
        '\\b(ImageBitmap|OffscreenCanvas)\\b',
        '(^|, )(Blob|File) (basic|empty|NUL|unpaired|paired)|two Blobs',
        '^Serializing a non-serializable platform object fails$',
        '^A subclass instance will be received as its closest transferable superclass$',
      ].join('|'),
    ),
  ],
]

const foreign = (file, name) => FOREIGN.some(([files, names]) => files.test(file) && names.test(name))
const counted = (v, file) => [...v.results].filter(([name]) => !foreign(file, name))
const passes = (v, file) => counted(v, file).filter(([, r]) => r.status === 0).length

/**
 * Runs the files (all covered ones, or those matching `area`/`file`) through CodeRuntime and
 * Node. Returns one row per file and totals per area.
 */
export async function runWpt({ dir = wptDir(), area = null, file = null, width = 2 } = {}) {
  if (!dir) throw new Error('no WPT folder (../shared/wpt, $WPT_DIR or --wpt DIR)')
  const files = testFiles(dir).filter((f) => (!area || areaOf(f) === area) && (!file || f.includes(file)))
  const require = createRequire(import.meta.url)
  const { CodeRuntime } = require('../index.js')
  const rt = new CodeRuntime({ threads: width, maxProgramBytes: 16 * 1024 * 1024, computeMs: 120000 })
  try {
    const programs = files.map((f) => programOf(dir, f))
    const [ours, node] = await Promise.all([
      pool(programs, width, (p) => runInRuntime(rt, p)),
      pool(programs, width, (p) => runInNode(p)),
    ])
    const rows = files.map((f, i) => ({ file: f, area: areaOf(f), ours: ours[i], node: node[i] }))
    const areas = new Map()
    for (const [name] of AREAS) {
      const mine = rows.filter((r) => r.area === name)
      if (mine.length === 0) continue
      const subtests = mine.reduce((n, r) => n + Math.max(counted(r.ours, r.file).length, counted(r.node, r.file).length), 0)
      areas.set(name, {
        files: mine.length,
        subtests,
        ours: mine.reduce((n, r) => n + passes(r.ours, r.file), 0),
        node: mine.reduce((n, r) => n + passes(r.node, r.file), 0),
      })
    }
    return { rows, areas }
  } finally {
    await rt.dispose()
  }
}

/** Subtests whose verdicts differ between two runs of the same file. */
function differences(a, b) {
  const out = []
  for (const [name, r] of b.results) {
    const mine = a.results.get(name)
    if (!mine || (mine.status === 0) !== (r.status === 0)) out.push([name, mine, r])
  }
  for (const [name, r] of a.results) if (!b.results.has(name)) out.push([name, r, undefined])
  return out
}

/** Each file in Node under our harness and under WPT's testharness.js: the verdicts of both. */
export async function compareHarnesses(dir, files) {
  return pool(files, 2, async (f) => {
    const [ours, theirs] = await Promise.all([runInNode(programOf(dir, f)), runInNode(programOf(dir, f, { harness: 'wpt' }))])
    return { f, diff: differences(ours, theirs), ours, theirs }
  })
}

async function check(dir, filter) {
  const files = testFiles(dir).filter((f) => !filter || f.includes(filter))
  let same = 0
  const rows = await compareHarnesses(dir, files)
  for (const { f, diff, ours, theirs } of rows) {
    if (diff.length === 0 && ours.results.size === theirs.results.size) {
      same++
      continue
    }
    console.log(`${f}: ${ours.results.size} subtests (ours) / ${theirs.results.size} (testharness.js), ${diff.length} verdicts differ`)
    for (const [name, o, t] of diff.slice(0, 5)) console.log(`  ${JSON.stringify(name).slice(0, 120)}: ours ${o?.status ?? '-'} ${o?.message ?? ''} | testharness.js ${t?.status ?? '-'} ${t?.message ?? ''}`)
  }
  console.log(`${same} of ${files.length} files: the same verdicts under both harnesses`)
  return same === files.length
}

async function main(argv) {
  const opt = (name) => {
    const i = argv.indexOf(name)
    return i >= 0 ? argv[i + 1] : null
  }
  const dir = wptDir(opt('--wpt'))
  if (!dir) {
    console.error('no WPT folder: pass --wpt DIR or set WPT_DIR')
    process.exit(2)
  }
  if (argv.includes('--check')) process.exit((await check(dir, opt('--file'))) ? 0 : 1)
  const started = Date.now()
  const { rows, areas } = await runWpt({ dir, area: opt('--area'), file: opt('--file') })
  if (argv.includes('--json')) {
    console.log(JSON.stringify(Object.fromEntries(areas), null, 2))
    return
  }
  if (argv.includes('--diff')) {
    for (const r of rows) {
      if (r.ours.harness) console.log(`${r.file}: harness: ${r.ours.harness}`)
      for (const [name, o, n] of differences(r.ours, r.node)) {
        if (n && n.status === 0) console.log(`${r.file}: ${JSON.stringify(name).slice(0, 160)}: ${o ? `${o.status} ${o.message}` : 'missing'}`)
      }
    }
  }
  const width = Math.max(...[...areas.keys()].map((k) => k.length))
  console.log(`${'area'.padEnd(width)}  subtests      ours      Node`)
  for (const [name, a] of areas) {
    console.log(`${name.padEnd(width)}  ${String(a.subtests).padStart(8)}  ${String(a.ours).padStart(8)}  ${String(a.node).padStart(8)}`)
  }
  console.log(`${rows.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e)
    process.exit(1)
  })
}
