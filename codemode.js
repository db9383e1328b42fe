'use strict'
// `code-runtime-quickjs/codemode`: an `Executor` for `@cloudflare/codemode` (Code Mode) that
// runs the model's code in a `CodeRuntime` sandbox instead of a Cloudflare Worker or an iframe.
//
// It follows the package's own executors (0.5.6: `DynamicWorkerExecutor`, `IframeSandboxExecutor`):
// each provider is a namespace global whose members call the host function with the sandbox's
// argument list, spread; tool names are sanitized the same way; arguments and results cross as
// JSON with the package's binary codec; `console.warn`/`console.error` lines are prefixed
// `[warn] `/`[error] `; a throw becomes `error: message`. `@cloudflare/codemode` is not a
// dependency: nothing here imports it (codemode.d.ts declares structurally compatible types).

const { CodeRuntime } = require('./index.js')
const { normalizeCode } = require('./lib/loader.js')

const DEFAULT_TIMEOUT_MS = 60000
const MAX_TIMEOUT_MS = 2147483647
const PROVIDER_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/
const BINARY_TAG = '__codemode_binary_v1__'
const INTERNAL_PREFIX = '__codemode'

/**
 * Names a provider may not take: `DynamicWorkerExecutor`'s reserved names (0.5.6: its
 * sandbox's own globals and codec helpers), and words that cannot be parameter names in
 * strict mode.
 */
const RESERVED_PROVIDER_NAMES = new Set([
  '__dispatchers', '__connectors', '__logs', '__CODEMODE_BINARY_TAG', '__bytesToBase64', '__base64ToBytes',
  '__encodeCodemodeValue', '__decodeCodemodeValue', '__stringifyForCodemode', '__parseForCodemode',
  'WorkerEntrypoint', 'CodeExecutor', 'Promise', 'setTimeout', 'Error', 'console',
  'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do',
  'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in',
  'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var',
  'void', 'while', 'with', 'yield', 'let', 'static', 'implements', 'interface', 'package', 'private',
  'protected', 'public', 'arguments', 'eval',
]) // prettier-ignore

/** `@cloudflare/codemode`'s `sanitizeToolName` reserved set (the generated types use the sanitized names). */
const JS_RESERVED = new Set([
  'abstract', 'arguments', 'await', 'boolean', 'break', 'byte', 'case', 'catch', 'char', 'class', 'const',
  'continue', 'debugger', 'default', 'delete', 'do', 'double', 'else', 'enum', 'eval', 'export', 'extends',
  'false', 'final', 'finally', 'float', 'for', 'function', 'goto', 'if', 'implements', 'import', 'in',
  'instanceof', 'int', 'interface', 'let', 'long', 'native', 'new', 'null', 'package', 'private', 'protected',
  'public', 'return', 'short', 'static', 'super', 'switch', 'synchronized', 'this', 'throw', 'throws',
  'transient', 'true', 'try', 'typeof', 'undefined', 'var', 'void', 'volatile', 'while', 'with', 'yield',
]) // prettier-ignore

/** Same rules as `sanitizeToolName` in `@cloudflare/codemode`: `get-weather` → `get_weather`. */
function sanitizeToolName(name) {
  if (!name) return '_'
  let sanitized = name.replace(/[-.\s]/g, '_').replace(/[^a-zA-Z0-9_$]/g, '')
  if (!sanitized) return '_'
  if (/^[0-9]/.test(sanitized)) sanitized = '_' + sanitized
  if (JS_RESERVED.has(sanitized)) sanitized += '_'
  return sanitized
}

// The host side of the package's JSON codec: byte arrays travel as tagged base64 objects.
function encodeReplacer(key, value) {
  const raw = this[key] // before toJSON (a Buffer would otherwise arrive as { type, data })
  if (raw instanceof ArrayBuffer) return { [BINARY_TAG]: 'ArrayBuffer', data: Buffer.from(raw).toString('base64') }
  if (ArrayBuffer.isView(raw)) {
    const data = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64')
    return { [BINARY_TAG]: raw instanceof Uint8Array ? 'Uint8Array' : 'ArrayBufferView', data }
  }
  return value
}

function decodeReviver(_key, value) {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, BINARY_TAG) || typeof value.data !== 'string') {
    return value
  }
  const bytes = new Uint8Array(Buffer.from(value.data, 'base64'))
  return value[BINARY_TAG] === 'ArrayBuffer' ? bytes.buffer : bytes
}

/**
 * The sandbox side, run once per execution before the model's code. Self-contained: its
 * source text is embedded in the program (`sandboxMain.toString()`), so it may use only
 * what a sandbox has. It builds one namespace per provider around the raw binding global
 * (then deletes the global), prefixes `console.warn`/`console.error`, runs the preludes,
 * calls the model's function, and completes with `{ ok: true, json }` (the result as JSON
 * text) or `{ ok: false, error }`.
 */
function sandboxMain(bind, prelude, specs) {
  const G = globalThis
  const stringify = JSON.stringify
  const parse = JSON.parse
  const hasOwnProperty = Object.prototype.hasOwnProperty
  const hasOwn = (object, key) => hasOwnProperty.call(object, key)
  const fromCharCode = String.fromCharCode
  const TAG = '__codemode_binary_v1__'

  const toBase64 = (bytes) => {
    let binary = ''
    for (let i = 0; i < bytes.length; i += 0x8000) binary += fromCharCode.apply(null, bytes.subarray(i, i + 0x8000))
    return G.btoa(binary)
  }
  const replacer = (_key, value) => {
    if (value instanceof ArrayBuffer) return { [TAG]: 'ArrayBuffer', data: toBase64(new Uint8Array(value)) }
    if (ArrayBuffer.isView(value)) {
      const data = toBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength))
      return { [TAG]: value instanceof Uint8Array ? 'Uint8Array' : 'ArrayBufferView', data }
    }
    return value
  }
  const reviver = (_key, value) => {
    if (value === null || typeof value !== 'object' || !hasOwn(value, TAG) || typeof value.data !== 'string') return value
    const binary = G.atob(value.data)
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return value[TAG] === 'ArrayBuffer' ? bytes.buffer : bytes
  }
  const messageOf = (error) => {
    try {
      if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
        const message = error.message
        if (typeof message === 'string' && message !== '') return message
      }
      return String(error)
    } catch {
      return 'the code threw a value that cannot be converted to a string'
    }
  }

  const namespaces = specs.map((spec) => {
    const raw = G[spec.global]
    try {
      delete G[spec.global]
    } catch {}
    const callers = new Map()
    return new Proxy(
      {},
      {
        get(target, key) {
          if (hasOwn(target, key)) return target[key]
          if (typeof key !== 'string') return undefined
          // Not thenable: `await codemode` must not hang.
          if (key === 'then' && !hasOwn(raw, key)) return undefined
          let caller = callers.get(key)
          if (caller === undefined) {
            caller = async (...args) => {
              if (!hasOwn(raw, key)) throw new Error(`Tool "${key}" not found`)
              return parse(await raw[key](stringify(args, replacer)), reviver).result
            }
            callers.set(key, caller)
          }
          return caller
        },
      },
    )
  })

  const console = G.console
  if (console) {
    for (const [method, tag] of [['warn', '[warn]'], ['error', '[error]']]) {
      const original = console[method]
      if (typeof original !== 'function') continue
      console[method] = function (...args) {
        return original.apply(this, typeof args[0] === 'string' ? [`${tag} ${args[0]}`, ...args.slice(1)] : [tag, ...args])
      }
    }
  }

  return (async () => {
    let value
    try {
      if (prelude) prelude(...namespaces)
      value = await bind(...namespaces)()
    } catch (error) {
      return { ok: false, error: messageOf(error) }
    }
    try {
      return { ok: true, json: stringify({ result: value }, replacer) }
    } catch (error) {
      return { ok: false, error: `the result could not be serialized: ${messageOf(error)}` }
    }
  })()
}

const SANDBOX_MAIN_SOURCE = sandboxMain.toString()

/**
 * The program: line 1 starts the model's code (so its line numbers are the program's), the
 * helpers follow as hoisted function declarations. Each provider name is a parameter of the
 * arrow that wraps the code, so namespaces shadow nothing outside it.
 */
function buildProgram(code, providers) {
  const params = providers.map((p) => p.name).join(', ')
  const preludes = providers.filter((p) => typeof p.prelude === 'string' && p.prelude !== '')
  const specs = providers.map((p) => ({ global: p.global }))
  // A trailing `;` would end the parenthesized expression early (the package's normalizeCode keeps it).
  let end = code.length
  while (end > 0 && /[\s;]/.test(code[end - 1])) end--
  const body = code.slice(0, end)
  const head = `return await __codemode_main__((${params}) => (`
  let program = `${head}${body}\n), ${preludes.length > 0 ? '__codemode_prelude__' : 'undefined'});\n`
  if (preludes.length > 0) {
    program += `function __codemode_prelude__(${params}) {\n${preludes.map((p) => p.prelude).join('\n;\n')}\n}\n`
  }
  program += `function __codemode_main__(bind, prelude) {\n  return (${SANDBOX_MAIN_SOURCE})(bind, prelude, ${JSON.stringify(specs)})\n}\n`
  return { program, column: head.length }
}

const NORMALIZED_HEAD = 'async () => {\n'

/**
 * Where the normalized code's text came from in the code as written, as a function from a
 * program position (1-based line and column) to the code's; `undefined` where it has no
 * counterpart. The normalized code is either a piece of the code (an arrow function, fences
 * and blanks cut away), on line 1 of the program after `head`, or `async () => {\n` and text
 * that starts with a piece of the code, from line 2.
 */
function codePositions(code, normalized, headLength) {
  let at = code.indexOf(normalized)
  let firstLine = 1
  if (at < 0 && normalized.startsWith(NORMALIZED_HEAD)) {
    const rest = normalized.slice(NORMALIZED_HEAD.length)
    const firstRestLine = rest.slice(0, rest.indexOf('\n') >>> 0)
    at = firstRestLine === '' ? -1 : code.indexOf(firstRestLine)
    firstLine = 2
  }
  if (at < 0) return () => undefined
  const before = code.slice(0, at)
  const line = before.split('\n').length
  const column = at - before.lastIndexOf('\n')
  const firstColumnShift = firstLine === 1 ? headLength : 0
  return (programLine, programColumn) => {
    if (programLine < firstLine) return undefined
    if (programLine > firstLine) return [line + programLine - firstLine, programColumn]
    if (programColumn <= firstColumnShift) return undefined
    return [line, column + programColumn - firstColumnShift - 1]
  }
}

/** Positions in a parse error or stack (`(2:68)`, `program.ts:2:68`) as positions in the code. */
function codeLocations(message, toCode) {
  const map = (line, column, format) => {
    const mapped = toCode(Number(line), Number(column))
    return mapped === undefined ? format(line, column) : format(mapped[0], mapped[1])
  }
  return message
    .replace(/\((\d+):(\d+)\)/g, (_, l, c) => map(l, c, (a, b) => `(${a}:${b})`))
    .replace(/(program\.ts:)(\d+):(\d+)/g, (_, at, l, c) => map(l, c, (a, b) => `${at}${a}:${b}`))
}

function describe(value) {
  if (typeof value === 'string') return JSON.stringify(value)
  if (value === null || typeof value !== 'object') return String(value)
  return Array.isArray(value) ? 'an array' : 'an object'
}

function failure(error, logs) {
  return logs === undefined ? { result: undefined, error } : { result: undefined, error, logs }
}

function messageOf(error) {
  try {
    return error instanceof Error ? error.message : String(error)
  } catch {
    return 'unknown error'
  }
}

const asyncDispose = Symbol.asyncDispose ?? Symbol.for('nodejs.asyncDispose')

/** Own property of every executor holding the executor itself (see CodeRuntime's INSTANCE). */
const INSTANCE = Symbol('QuickJSExecutor instance')

class QuickJSExecutor {
  /** The executor a public member was used on, through a Proxy of it too; see CodeRuntime.#of. */
  static #of(value, method) {
    let self
    try {
      self = value[INSTANCE]
    } catch {}
    if (typeof self === 'object' && self !== null && #timeoutMs in self) return self
    throw new TypeError(`QuickJSExecutor.${method} used on an object that is not a QuickJSExecutor`)
  }

  #runtime
  #ownsRuntime
  #timeoutMs
  /** AbortController → the run's promise, for every execution in flight. */
  #inFlight = new Map()
  #disposed = false
  #disposing = null

  /** @param {import('./codemode').QuickJSExecutorOptions} [options] */
  constructor(options) {
    if (options === undefined || options === null) options = {}
    if (typeof options !== 'object' || Array.isArray(options)) {
      throw new TypeError(`QuickJSExecutor options must be an object (got ${describe(options)})`)
    }
    for (const key of Reflect.ownKeys(options)) {
      if (key !== 'runtime' && key !== 'timeoutMs') {
        throw new TypeError(`QuickJSExecutor options has an unknown key ${describe(String(key))}`)
      }
    }
    const { runtime, timeoutMs = DEFAULT_TIMEOUT_MS } = options
    if (typeof timeoutMs !== 'number') {
      throw new TypeError(`QuickJSExecutor options.timeoutMs must be a number (got ${describe(timeoutMs)})`)
    }
    if (!(timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS)) {
      throw new RangeError(`QuickJSExecutor options.timeoutMs must be a positive number of milliseconds, at most ${MAX_TIMEOUT_MS} (got ${timeoutMs})`)
    }
    this.#timeoutMs = timeoutMs
    if (runtime !== null && typeof runtime === 'object' && typeof runtime.run === 'function') {
      this.#runtime = runtime
      this.#ownsRuntime = false
    } else {
      this.#runtime = new CodeRuntime(runtime)
      this.#ownsRuntime = true
    }
    Object.defineProperty(this, INSTANCE, { value: this })
  }

  /** The runtime the executor runs code on (its own, or the one it was given). */
  get runtime() {
    return QuickJSExecutor.#of(this, 'runtime').#runtime
  }

  /**
   * Runs `code` (an async arrow function's source) with each provider as a namespace global.
   * Never rejects: every failure resolves as `{ result: undefined, error, logs? }`.
   */
  execute(code, providersOrFns, options) {
    let self
    try {
      self = QuickJSExecutor.#of(this, 'execute()')
    } catch (error) {
      return Promise.reject(error)
    }
    return self.#execute(code, providersOrFns, options)
  }

  async #execute(code, providersOrFns, options) {
    if (this.#disposed) return failure('QuickJSExecutor is disposed')
    let controller
    let timer
    let timedOut = false
    try {
      if (typeof code !== 'string') return failure(`code must be a string (got ${describe(code)})`)
      if (options?.connectors?.length > 0) {
        return failure('QuickJSExecutor does not support connectors (Workers RPC bindings); pass providers instead')
      }
      const providers = Array.isArray(providersOrFns) ? providersOrFns : [{ name: 'codemode', fns: providersOrFns ?? {} }]
      const seen = new Set()
      const resolved = []
      const bindings = []
      for (const provider of providers) {
        const name = provider?.name
        // The package's order: reserved, then not an identifier, then a duplicate.
        if (typeof name === 'string' && (RESERVED_PROVIDER_NAMES.has(name) || name.startsWith(INTERNAL_PREFIX))) {
          return failure(`Provider name "${name}" is reserved`)
        }
        if (typeof name !== 'string' || !PROVIDER_NAME.test(name)) {
          return failure(`Provider name ${describe(name)} is not a valid JavaScript identifier`)
        }
        if (seen.has(name)) return failure(`Duplicate provider name "${name}"`)
        seen.add(name)
        const global = `${INTERNAL_PREFIX}_provider_${resolved.length}__`
        const spread = provider.positionalArgs !== false
        const functions = Object.create(null)
        const sources = new Map()
        for (const [toolName, fn] of Object.entries(provider.fns ?? {})) {
          const member = sanitizeToolName(toolName)
          const existing = sources.get(member)
          if (existing !== undefined) {
            return failure(`Tool names "${existing}" and "${toolName}" both sanitize to "${member}" in provider "${name}"`)
          }
          sources.set(member, toolName)
          functions[member] = async (argsJson) => {
            if (typeof fn !== 'function') throw new TypeError(`Tool "${toolName}" is not a function`)
            const args = JSON.parse(argsJson, decodeReviver)
            // positionalArgs: false is the 0.3-era single-object convention: fn(args[0] ?? {}).
            const result = await (spread ? fn(...args) : fn(args[0] ?? {}))
            return JSON.stringify({ result }, encodeReplacer)
          }
        }
        resolved.push({ name, global, prelude: provider.prelude })
        bindings.push({ global, functions })
      }

      controller = new AbortController()
      timer = setTimeout(() => {
        timedOut = true
        controller.abort(new Error(`Execution timed out after ${this.#timeoutMs}ms`))
      }, this.#timeoutMs)
      // As the package's executors do (TypeScript read as its JavaScript, see normalizeCode).
      const normalized = normalizeCode(code)
      const { program, column } = buildProgram(normalized, resolved)
      const run = this.#runtime.run({ program, bindings, signal: controller.signal })
      this.#inFlight.set(controller, run)
      const outcome = await run
      const logs = outcome.logs
      if (outcome.error) {
        const { kind, message } = outcome.error
        if (kind === 'abort' && timedOut) return failure(`Execution timed out after ${this.#timeoutMs}ms`, logs)
        if (kind === 'abort' && this.#disposed) return failure('Execution aborted: executor disposed', logs)
        if (kind === 'abort') return failure(`Execution aborted: ${message}`, logs)
        if (kind === 'timeout') return failure(`Execution timed out: ${message}`, logs)
        return failure(kind === 'exception' ? codeLocations(message, codePositions(code, normalized, column)) : message, logs)
      }
      const completion = outcome.value
      if (completion?.ok === true && typeof completion.json === 'string') {
        return { result: JSON.parse(completion.json, decodeReviver).result, logs }
      }
      if (completion?.ok === false) return failure(String(completion.error), logs)
      return failure('the code did not complete through the executor (the program returned early)', logs)
    } catch (error) {
      return failure(this.#disposed ? 'QuickJSExecutor is disposed' : messageOf(error))
    } finally {
      clearTimeout(timer)
      if (controller) this.#inFlight.delete(controller)
    }
  }

  /**
   * Ends in-flight executions (they resolve with `Execution aborted: executor disposed`),
   * waits for them to stop and, when the executor created its runtime, disposes it. A runtime
   * passed in stays usable. Later `execute()` calls resolve with an error. Idempotent.
   */
  dispose() {
    let self
    try {
      self = QuickJSExecutor.#of(this, 'dispose()')
    } catch (error) {
      return Promise.reject(error)
    }
    return self.#dispose()
  }

  #dispose() {
    if (this.#disposing === null) {
      this.#disposed = true
      const runs = []
      for (const [controller, run] of this.#inFlight) {
        controller.abort(new Error('executor disposed'))
        runs.push(run.catch(() => {}))
      }
      this.#disposing = Promise.all(runs).then(() => (this.#ownsRuntime ? this.#runtime.dispose() : undefined))
    }
    return this.#disposing
  }

  [asyncDispose]() {
    return this.dispose()
  }
}

Object.defineProperty(QuickJSExecutor.prototype, Symbol.toStringTag, { value: 'QuickJSExecutor' })

module.exports.QuickJSExecutor = QuickJSExecutor
