// Runs test262 programs (file paths on stdin, one a line) in the Node that runs this file,
// each in a fresh vm context (its own globals and Intl) as run() runs a program: strict,
// the body of an async function. Prints one line per program as upstream.c does: `ok` or
// `fail <first line of what it threw>`, then the logs, separated by \x1f.
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import vm from 'node:vm'

const lines = createInterface({ input: process.stdin })
const files = []
lines.on('line', (l) => l && files.push(l))
await new Promise((r) => lines.on('close', r))

const clean = (s) => String(s).split('\n')[0].replace(/\x1f/g, ' ')
for (const file of files) {
  const body = readFileSync(file, 'utf8')
  const logs = []
  const sandbox = { console: { log: (...a) => logs.push(a.map(String).join(' ')) } }
  const ctx = vm.createContext(sandbox)
  let head = 'ok'
  try {
    const p = vm.runInContext(`(async function () { 'use strict';\n${body}\n})()`, ctx, { timeout: 10_000 })
    await Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 10_000).unref())])
  } catch (e) {
    let text
    try {
      text = e && typeof e === 'object' && 'name' in e ? `${e.name}: ${e.message}` : String(e)
    } catch {
      text = 'unprintable error'
    }
    head = `fail ${clean(text)}`
  }
  process.stdout.write([head, ...logs.map(clean)].join('\x1f') + '\n')
}
