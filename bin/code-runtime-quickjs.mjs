#!/usr/bin/env node
// Command-line entry: run one TypeScript program in a sandbox against a module of async
// functions, and print what it logged and returned.
//
//   code-runtime-quickjs run <program.ts> [--bindings <module>] [--timeout <ms>] [--json]
//
// `--timeout` is the wall-clock ceiling of the run. The bindings module either exports `bindings` (an array of CodeBindingNamespace) or exports
// async functions, which become members of a global `tools` (rejections are `ToolCallError`s).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const require = createRequire(import.meta.url)
const { CodeRuntime } = require('../index.js')

const USAGE = 'usage: code-runtime-quickjs run <program.ts> [--bindings <module>] [--timeout <ms>] [--json]'

function fail(message) {
  process.stderr.write(`${message}\n${USAGE}\n`)
  process.exit(2)
}

function parseArgs(argv) {
  const [command, ...rest] = argv
  if (command !== 'run') fail(command === undefined ? 'missing command' : `unknown command ${JSON.stringify(command)}`)
  const options = { program: undefined, bindings: undefined, timeout: undefined, json: false }
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]
    if (arg === '--json') options.json = true
    else if (arg === '--bindings') options.bindings = rest[++i] ?? fail('--bindings needs a module path')
    else if (arg === '--timeout') {
      const ms = Number(rest[++i])
      if (!Number.isFinite(ms) || ms <= 0) fail('--timeout needs a positive number of milliseconds')
      options.timeout = ms
    } else if (arg.startsWith('--')) fail(`unknown option ${arg}`)
    else if (options.program === undefined) options.program = arg
    else fail(`unexpected argument ${JSON.stringify(arg)}`)
  }
  if (options.program === undefined) fail('missing <program.ts>')
  return options
}

async function loadBindings(path) {
  if (path === undefined) return []
  const mod = await import(pathToFileURL(resolve(path)).href)
  const exports = mod.default && typeof mod.default === 'object' && !mod.bindings ? mod.default : mod
  if (Array.isArray(exports.bindings)) return exports.bindings
  const functions = Object.fromEntries(Object.entries(exports).filter(([, v]) => typeof v === 'function'))
  return [{ global: 'tools', functions, errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' } }]
}

const options = parseArgs(process.argv.slice(2))
const program = readFileSync(options.program, 'utf8')
const bindings = await loadBindings(options.bindings)
const runtime = new CodeRuntime(options.timeout === undefined ? {} : { maxWallMs: options.timeout })
const started = process.hrtime.bigint()
const result = await runtime.run({ program, bindings })
const ms = Number(process.hrtime.bigint() - started) / 1e6
await runtime.dispose()

if (options.json) {
  process.stdout.write(`${JSON.stringify(result)}\n`)
} else {
  for (const line of result.logs) process.stdout.write(`[log] ${line}\n`)
  if (result.error) process.stdout.write(`[error] ${result.error.kind}: ${result.error.message}\n`)
  else if ('value' in result) process.stdout.write(`[value] ${JSON.stringify(result.value, null, 2)}\n`)
  process.stdout.write(`(ran in ${ms.toFixed(2)} ms)\n`)
}
process.exitCode = result.error ? 1 : 0
