#!/usr/bin/env node
// The official ECMAScript suite through run(), beside upstream QuickJS-ng on the same tests.
//
//   npm run test262 -- <test262 checkout> [dir under test/ ...] [--out <file.json>] [--limit N]
//   npm run test262 -- <test262 checkout> intl402 --node <path to a node binary>
//
// Not part of CI: the suite is fetched separately (github.com/tc39/test262); nothing of it is
// copied here. Each test becomes one program the way run() runs programs (strict, the body
// of an async function): the harness (`assert.js`, `sta.js`, the test's `includes`), the test,
// and for `async` tests a `$DONE` the program awaits. The same program text runs in our
// runtime (`CodeRuntime.run`) and in upstream QuickJS-ng 0.16.2 (scripts/test262/upstream.c,
// compiled here from the rquickjs-sys 0.14.0 sources in the cargo registry, none of
// vendor/'s changes; it wraps the program exactly as run() does and evaluates it by length).
// With `--node <binary>` the reference is that Node instead (scripts/test262/node-driver.mjs
// runs each program in a fresh vm context the same way): for `intl402`, which upstream
// QuickJS-ng cannot run (it has no Intl). Tests that need a sloppy-mode script (`noStrict`, `raw`) or a module cannot be programs
// and are counted as skipped. Prints the counts per directory and every test ours fails that
// upstream passes, grouped by directory, with our failure; `--out` writes all results.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'

const require = createRequire(import.meta.url)
const here = path.dirname(new URL(import.meta.url).pathname)

const args = process.argv.slice(2)
const option = (name) => {
  const i = args.indexOf(name)
  if (i < 0) return undefined
  const [, value] = args.splice(i, 2)
  return value
}
const out = option('--out')
const nodeReference = option('--node')
const limit = Number(option('--limit') ?? Infinity)
const [root, ...dirs] = args
if (!root || !existsSync(path.join(root, 'harness', 'assert.js'))) {
  console.error('usage: npm run test262 -- <test262 checkout> [dir under test/ ...] [--out file.json] [--limit N]')
  process.exit(2)
}
const testDirs = dirs.length ? dirs : ['language', 'built-ins']

// ---- the tests -------------------------------------------------------------------------

function* walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) yield* walk(full)
    else if (name.endsWith('.js') && !name.includes('_FIXTURE')) yield full
  }
}

/** The frontmatter keys a run needs: includes, flags, negative { phase, type }, features. */
function meta(source) {
  const m = source.match(/\/\*---([\s\S]*?)---\*\//)
  const text = m ? m[1] : ''
  const list = (key) => {
    const inline = text.match(new RegExp(`^${key}:\\s*\\[([^\\]]*)\\]`, 'm'))
    if (inline) return inline[1].split(',').map((s) => s.trim()).filter(Boolean)
    const block = text.match(new RegExp(`^${key}:\\s*\\n((?:\\s+-.*\\n?)+)`, 'm'))
    return block ? block[1].split('\n').map((s) => s.replace(/^\s*-\s*/, '').trim()).filter(Boolean) : []
  }
  const negative = text.match(/^negative:\s*\n\s+phase:\s*(\S+)\s*\n\s+type:\s*(\S+)/m)
    ?? text.match(/^negative:\s*\n\s+type:\s*(\S+)\s*\n\s+phase:\s*(\S+)/m)
  let neg
  if (negative) {
    neg = /phase:\s*(\S+)/.exec(negative[0]) && {
      phase: /phase:\s*(\S+)/.exec(negative[0])[1],
      type: /type:\s*(\S+)/.exec(negative[0])[1],
    }
  }
  return { includes: list('includes'), flags: list('flags'), features: list('features'), negative: neg }
}

const harnessCache = new Map()
const harness = (name) => {
  if (!harnessCache.has(name)) harnessCache.set(name, readFileSync(path.join(root, 'harness', name), 'utf8'))
  return harnessCache.get(name)
}

// For async tests: $DONE reports as doneprintHandle.js does and ends the program's wait.
const ASYNC_PRELUDE = `var __t262_end; var __t262_done = new Promise((r) => { __t262_end = r });
globalThis.$DONE = function $DONE(error) {
  if (error) {
    if (typeof error === 'object' && error !== null && 'name' in error) console.log('Test262:AsyncTestFailure:' + error.name + ': ' + error.message);
    else console.log('Test262:AsyncTestFailure:Test262Error: ' + String(error));
  } else console.log('Test262:AsyncTestComplete');
  __t262_end();
};
`

/** The program for one test, or why it cannot be one. */
function program(file) {
  const source = readFileSync(file, 'utf8')
  const m = meta(source)
  if (m.flags.includes('module')) return { skip: 'module' }
  if (m.flags.includes('noStrict') || m.flags.includes('raw')) return { skip: 'sloppy mode' }
  if (m.negative?.phase === 'resolution') return { skip: 'module' }
  const isAsync = m.flags.includes('async')
  const parts = [harness('assert.js'), harness('sta.js')]
  for (const inc of m.includes) if (inc !== 'doneprintHandle.js') parts.push(harness(inc))
  const body = `${isAsync ? ASYNC_PRELUDE : ''}${parts.join('\n')}\n${source}\n${isAsync ? ';await __t262_done\n' : ''}`
  return { body, isAsync, negative: m.negative, features: m.features }
}

/** Pass or fail from what a run ended with: `ok` or the first line of what it threw. */
function verdict(test, failure, log) {
  if (test.negative) {
    if (failure === undefined) return { pass: false, why: `expected ${test.negative.type}, completed` }
    const name = failure.split(':')[0].trim()
    return name === test.negative.type ? { pass: true } : { pass: false, why: failure }
  }
  if (failure !== undefined) return { pass: false, why: failure }
  if (test.isAsync) {
    const bad = log.find((l) => l.startsWith('Test262:AsyncTestFailure'))
    if (bad) return { pass: false, why: bad }
    if (!log.includes('Test262:AsyncTestComplete')) return { pass: false, why: '$DONE not called' }
  }
  return { pass: true }
}

// ---- upstream QuickJS-ng -----------------------------------------------------------------

function buildUpstream() {
  const registry = path.join(os.homedir(), '.cargo', 'registry', 'src')
  const index = existsSync(registry) ? readdirSync(registry).map((d) => path.join(registry, d, 'rquickjs-sys-0.14.0')) : []
  const src = index.find((d) => existsSync(path.join(d, 'quickjs', 'quickjs.c')))
  if (!src) {
    throw new Error('rquickjs-sys 0.14.0 is not in the cargo registry: fetch it with `cargo fetch` in a project that depends on rquickjs-sys = "=0.14.0" without our patch')
  }
  const dir = path.join(os.tmpdir(), 'code-runtime-test262')
  mkdirSync(dir, { recursive: true })
  const exe = path.join(dir, 'upstream')
  const q = path.join(src, 'quickjs')
  const driver = path.join(here, 'test262', 'upstream.c')
  if (!existsSync(exe) || statSync(exe).mtimeMs < statSync(driver).mtimeMs) {
    console.error(`building upstream QuickJS-ng from ${q} ...`)
    execFileSync('cc', ['-O2', '-D_GNU_SOURCE', '-DNDEBUG', `-I${q}`, '-o', exe, driver,
      ...['quickjs.c', 'libregexp.c', 'libunicode.c', 'dtoa.c'].map((f) => path.join(q, f)), '-lm', '-lpthread'], { stdio: 'inherit' })
  }
  return exe
}

/** Runs the programs (written to files) through the upstream driver, one process at a time;
 * a program that crashes it is recorded as such and the driver restarts after it. */
async function runUpstream(exe, files, exeArgs = []) {
  const results = []
  while (results.length < files.length) {
    const rest = files.slice(results.length)
    const child = spawn(exe, exeArgs, { stdio: ['pipe', 'pipe', 'inherit'] })
    const lines = createInterface({ input: child.stdout })
    const got = []
    lines.on('line', (line) => got.push(line))
    const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve(signal ?? code)))
    child.stdin.on('error', () => {})
    for (const f of rest) child.stdin.write(f + '\n')
    child.stdin.end()
    const status = await exited
    for (const line of got) {
      const [head, ...log] = line.split('\x1f')
      const failure = head.startsWith('fail ') ? head.slice(5) : head === 'ok' ? undefined : head
      results.push({ failure, log: log.filter(Boolean) })
    }
    if (results.length < files.length) results.push({ failure: `upstream driver crashed (${status})`, log: [] })
  }
  return results
}

// ---- ours --------------------------------------------------------------------------------

async function runOurs(bodies) {
  const { CodeRuntime } = require('../index.js')
  const rt = new CodeRuntime({ computeMs: 20_000, maxWallMs: 30_000, threads: 2 })
  const results = new Array(bodies.length)
  let next = 0
  const worker = async () => {
    while (next < bodies.length) {
      const i = next++
      const r = await rt.run({ program: bodies[i], bindings: [] })
      let failure
      if (r.error) {
        const text = r.error.kind === 'exception' ? r.error.message : `${r.error.kind}: ${r.error.message}`
        failure = text.split('\n')[0]
      }
      results[i] = { failure, log: r.logs }
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()])
  rt.dispose()
  return results
}

// ---- main --------------------------------------------------------------------------------

const tests = []
const skipped = {}
for (const d of testDirs) {
  for (const file of walk(path.join(root, 'test', d))) {
    if (tests.length >= limit) break
    const rel = path.relative(path.join(root, 'test'), file)
    const t = program(file)
    if (t.skip) {
      skipped[t.skip] = (skipped[t.skip] ?? 0) + 1
      continue
    }
    tests.push({ rel, ...t })
  }
}

const reference = nodeReference ? 'node' : 'upstream'
const exe = nodeReference ?? buildUpstream()
const exeArgs = nodeReference ? [path.join(here, 'test262', 'node-driver.mjs')] : []
const work = path.join(os.tmpdir(), 'code-runtime-test262', 'programs')
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
console.error(`${tests.length} programs (skipped: ${JSON.stringify(skipped)}); running ...`)
const started = Date.now()
const up = []
const ours = []
// In chunks, so the programs on disk for the upstream driver stay few.
const CHUNK = 1000
for (let at = 0; at < tests.length; at += CHUNK) {
  const chunk = tests.slice(at, at + CHUNK)
  const files = chunk.map((t, i) => {
    const f = path.join(work, `${i}.js`)
    writeFileSync(f, t.body)
    return f
  })
  const [u, o] = await Promise.all([runUpstream(exe, files, exeArgs), runOurs(chunk.map((t) => t.body))])
  up.push(...u)
  ours.push(...o)
  process.stderr.write(`\r${at + chunk.length} / ${tests.length}`)
}
rmSync(work, { recursive: true, force: true })
console.error(`\nran in ${((Date.now() - started) / 1000).toFixed(0)} s`)

const rows = tests.map((t, i) => ({
  test: t.rel,
  dynamicImport: t.features.includes('dynamic-import') || /\bimport\s*\(/.test(t.body),
  ours: verdict(t, ours[i]?.failure, ours[i]?.log ?? []),
  upstream: verdict(t, up[i]?.failure, up[i]?.log ?? []),
}))

const group = (rel) => rel.split(path.sep).slice(0, rel.startsWith('intl402') ? 2 : 3).join('/')
const byDir = {}
for (const r of rows) {
  const top = r.test.split(path.sep)[0]
  const c = (byDir[top] ??= { tests: 0, ours: 0, upstream: 0, oursOnly: 0, upstreamOnly: 0 })
  c.tests++
  if (r.ours.pass) c.ours++
  if (r.upstream.pass) c.upstream++
  if (r.ours.pass && !r.upstream.pass) c.oursOnly++
  if (!r.ours.pass && r.upstream.pass) c.upstreamOnly++
}
console.log(`directory      tests   ours  ${reference.padStart(8)}  ${reference}-only  ours-only`)
for (const [d, c] of Object.entries(byDir)) {
  console.log(`${d.padEnd(12)} ${String(c.tests).padStart(7)} ${String(c.ours).padStart(6)} ${String(c.upstream).padStart(9)} ${String(c.upstreamOnly).padStart(14)} ${String(c.oursOnly).padStart(10)}`)
}
if (nodeReference) {
  // Per constructor (intl402/<group>): what each passes.
  const byGroup = {}
  for (const r of rows) {
    const c = (byGroup[group(r.test)] ??= { tests: 0, ours: 0, node: 0 })
    c.tests++
    if (r.ours.pass) c.ours++
    if (r.upstream.pass) c.node++
  }
  console.log('\ngroup                          tests   ours   node')
  for (const [g, c] of Object.entries(byGroup)) {
    console.log(`${g.padEnd(30)} ${String(c.tests).padStart(6)} ${String(c.ours).padStart(6)} ${String(c.node).padStart(6)}`)
  }
  const all = Object.values(byDir).reduce((a, c) => ({ ours: a.ours + c.ours, node: a.node + c.upstream }), { ours: 0, node: 0 })
  console.log(`\nours ${all.ours}, node ${all.node}: ${((100 * all.ours) / Math.max(1, all.node)).toFixed(1)}% of node's pass count`)
}
console.log(`skipped (not programs): ${JSON.stringify(skipped)}`)

const lost = rows.filter((r) => !r.ours.pass && r.upstream.pass)
const imports = lost.filter((r) => r.dynamicImport)
const rest = lost.filter((r) => !r.dynamicImport)
console.log(`\nours fails, ${reference} passes: ${lost.length} (${imports.length} use import(), which programs refuse)`)
const groups = {}
for (const r of rest) (groups[group(r.test)] ??= []).push(r)
for (const [g, rs] of Object.entries(groups).sort((a, b) => b[1].length - a[1].length)) {
  console.log(`\n${g} (${rs.length})`)
  for (const r of rs) console.log(`  ${r.test}: ${r.ours.why}`)
}
if (out) writeFileSync(out, JSON.stringify({ byDir, skipped, rows }, null, 1))
