#!/usr/bin/env node
// Command-line entry: run one TypeScript program in a sandbox against a module of async
// functions, and print what it logged and returned.
//
// Every failure is one line on stderr (no stack trace) and a distinct exit code, listed in
// HELP; usage errors add the usage line. The runtime is loaded only once the arguments are
// valid, so `--help` and usage errors work even where the native binary does not load.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const require = createRequire(import.meta.url)

const EXIT = { ok: 0, programFailed: 1, usage: 2, unreadable: 3, runtime: 4 }
const USAGE = 'usage: code-runtime-quickjs run <program.ts> [--bindings <module>] [--timeout <ms>] [--json]'
const HELP = `${USAGE}
       code-runtime-quickjs --help | --version

Runs a TypeScript program in a fresh QuickJS sandbox and prints its logs and its value.

  run <program.ts>      the program: the body of an async function (top-level await and return)
  --bindings <module>   an ES or CommonJS module; it exports \`bindings\` (an array of
                        { global, functions }) or async functions, which become members of a
                        global \`tools\` (their rejections are ToolCallErrors in the program)
  --timeout <ms>        the run's wall-clock ceiling (default 600000)
  --json                print the result object as one line of JSON
  -h, --help            print this help
  -v, --version         print the package version

Exit codes: 0 the program returned, 1 it failed (its error is printed), 2 usage error,
3 a file or module could not be read or loaded, 4 the runtime could not start.`

class CliError extends Error {
  constructor(message, exitCode) {
    super(message)
    this.exitCode = exitCode
  }
}

const usageError = (message) => new CliError(message, EXIT.usage)

/** One line of an error, whatever was thrown. */
function firstLine(error) {
  let text
  try {
    text = error instanceof Error ? error.message : String(error)
  } catch {
    text = 'unknown error'
  }
  return text.split('\n')[0]
}

function parseArgs(argv) {
  if (argv.includes('-h') || argv.includes('--help')) return { help: true }
  if (argv.includes('-v') || argv.includes('--version')) return { version: true }
  const [command, ...rest] = argv
  if (command !== 'run') throw usageError(command === undefined ? 'missing command' : `unknown command ${JSON.stringify(command)}`)
  const options = { program: undefined, bindings: undefined, timeout: undefined, json: false }
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]
    if (arg === '--json') options.json = true
    else if (arg === '--bindings') {
      options.bindings = rest[++i]
      if (options.bindings === undefined) throw usageError('--bindings needs a module path')
    } else if (arg === '--timeout') {
      const ms = Number(rest[++i])
      if (!Number.isFinite(ms) || ms <= 0 || ms > 2147483647) throw usageError('--timeout needs a positive number of milliseconds, at most 2147483647')
      options.timeout = ms
    } else if (arg.startsWith('-') && arg !== '-') throw usageError(`unknown option ${arg}`)
    else if (options.program === undefined) options.program = arg
    else throw usageError(`unexpected argument ${JSON.stringify(arg)}`)
  }
  if (options.program === undefined) throw usageError('missing <program.ts>')
  return options
}

function readProgram(path) {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    const reason = error && error.code === 'ENOENT' ? 'no such file' : error && error.code === 'EISDIR' ? 'is a directory' : firstLine(error)
    throw new CliError(`cannot read program ${path}: ${reason}`, EXIT.unreadable)
  }
}

async function loadBindings(path) {
  if (path === undefined) return []
  let mod
  try {
    mod = await import(pathToFileURL(resolve(path)).href)
  } catch (error) {
    const reason = error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(resolve(path)) ? 'no such file' : firstLine(error)
    throw new CliError(`cannot load bindings ${path}: ${reason}`, EXIT.unreadable)
  }
  const exports = mod.default && typeof mod.default === 'object' && !mod.bindings ? mod.default : mod
  if (Array.isArray(exports.bindings)) return exports.bindings
  const functions = Object.fromEntries(Object.entries(exports).filter(([, v]) => typeof v === 'function'))
  return [{ global: 'tools', functions, errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' } }]
}

function loadRuntime() {
  try {
    return require('../index.js').CodeRuntime
  } catch (error) {
    throw new CliError(firstLine(error).replace(/^code-runtime-quickjs: /, ''), EXIT.runtime)
  }
}

async function main(argv) {
  const options = parseArgs(argv)
  if (options.help) {
    process.stdout.write(`${HELP}\n`)
    return EXIT.ok
  }
  if (options.version) {
    process.stdout.write(`${require('../package.json').version}\n`)
    return EXIT.ok
  }
  const program = readProgram(options.program)
  const bindings = await loadBindings(options.bindings)
  const CodeRuntime = loadRuntime()
  let runtime
  let result
  const started = process.hrtime.bigint()
  try {
    runtime = new CodeRuntime(options.timeout === undefined ? {} : { maxWallMs: options.timeout })
    result = await runtime.run({ program, bindings })
  } catch (error) {
    // run() rejects only for misuse: here, bindings the module exported that are not valid.
    throw new CliError(`cannot run: ${firstLine(error)}`, options.bindings === undefined ? EXIT.runtime : EXIT.unreadable)
  } finally {
    if (runtime) await runtime.dispose()
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`)
  } else {
    for (const line of result.logs) process.stdout.write(`[log] ${line}\n`)
    if (result.error) process.stdout.write(`[error] ${result.error.kind}: ${result.error.message}\n`)
    else if ('value' in result) process.stdout.write(`[value] ${JSON.stringify(result.value, null, 2)}\n`)
    process.stdout.write(`(ran in ${ms.toFixed(2)} ms)\n`)
  }
  return result.error ? EXIT.programFailed : EXIT.ok
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (error) {
  const usage = error instanceof CliError && error.exitCode === EXIT.usage
  process.stderr.write(`code-runtime-quickjs: ${firstLine(error)}\n${usage ? `${USAGE}\n` : ''}`)
  process.exitCode = error instanceof CliError ? error.exitCode : EXIT.runtime
}
