'use strict'
// The package entry: the contract's `CodeRuntime` over the generated native binding.
//
// This file owns what napi cannot express well: validating config and requests with
// messages that name the field, AbortSignal listeners (added per run, always removed),
// turning the native result JSON into the result object, and keeping the Node process
// alive exactly while a run is in flight (the native side only holds weak handles).
// The engine itself — transpiling, executing, measuring — is Rust (see ARCHITECTURE.md).

/** The platforms a prebuilt binary is published for (`npm/<platform>/`). */
const PREBUILT_PLATFORMS = [
  'linux-x64-gnu', 'linux-x64-musl', 'linux-arm64-gnu', 'linux-arm64-musl',
  'darwin-x64', 'darwin-arm64', 'win32-x64-msvc',
] // prettier-ignore

/**
 * Loads the native addon through the generated loader (`binding.js`), replacing its generic
 * "Cannot find native binding" with an error that names this platform, the package that
 * should have provided the binary, and why loading it failed (e.g. a glibc too old).
 */
function loadNative() {
  try {
    return require('./binding.js')
  } catch (error) {
    const { platform, arch } = process
    let key = `${platform}-${arch}`
    if (platform === 'win32') key += '-msvc'
    if (platform === 'linux') {
      const report = process.report && typeof process.report.getReport === 'function' ? process.report.getReport() : null
      key += report && report.header && report.header.glibcVersionRuntime ? '-gnu' : '-musl'
    }
    const pkg = `code-runtime-quickjs-${key}`
    const reasons = []
    for (let e = error; e instanceof Error && reasons.length < 8; e = e.cause) {
      // The loader re-wraps each attempt's error, keeping only its message.
      if (!/^Cannot find (module|native binding)\b/.test(e.message)) reasons.push(e.message.split('\n')[0])
    }
    let message = `code-runtime-quickjs: no native binary loaded for this platform (${key}, Node ${process.version}). `
    if (!PREBUILT_PLATFORMS.includes(key)) {
      message += `Prebuilt binaries exist for ${PREBUILT_PLATFORMS.join(', ')}; on any other platform build from source (needs a Rust toolchain).`
    } else if (reasons.length > 0) {
      message += `The binary was found but failed to load: ${reasons.join('; ')}`
    } else {
      message +=
        `Its binary comes in the optional dependency ${pkg}, which is not installed: ` +
        'reinstall without --no-optional / --omit=optional (with a lockfile made on another platform, ' +
        'delete node_modules and package-lock.json first: npm/cli#4828).'
    }
    const failure = new Error(message)
    failure.code = 'ERR_CODE_RUNTIME_NO_BINARY'
    failure.cause = error
    throw failure
  }
}

const native = loadNative()
const { NativeEngine, resultWithoutRunning } = native
const NOOP = () => {}
const os = require('node:os')
const { types } = require('node:util')

const { stringify: jsonStringify, parse: jsonParse } = JSON
const { apply: reflectApply } = Reflect
const EVENT_SETTLED = 0
const EVENT_LOGS = 2
/** Runs whose latency `metrics()` summarises. */
const LATENCY_WINDOW = 1024
const RESOLVED = Promise.resolve()
const POLL_AFTER_ANSWER_MS = 0.05
// After answering a run, how long the main thread waits (spinning) for the run's next call
// before leaving it to wake the event loop, and how long such a chain of direct hand-offs may
// keep the event loop from turning.
const WAIT_FOR_NEXT_CALL_MICROS = 30
const MAX_CHAIN_MS = 1
const BINDING_RESOLUTION_NOT_LOSSLESS = 'binding resolution must be lossless JSON'
const UNPRINTABLE_REJECTION = 'binding rejected with a reason that cannot be converted to a string'

/** A Set whose contents cannot change. */
function readonlySet(values) {
  const set = new Set(values)
  const refuse = () => {
    throw new TypeError('this set is read-only')
  }
  Object.defineProperties(set, {
    add: { value: refuse },
    delete: { value: refuse },
    clear: { value: refuse },
  })
  return Object.freeze(set)
}

const RESERVED_BINDING_GLOBALS = readonlySet(['console', '__dsh_main__', '__builtins__', '__name__', '__debug__'])

const RESERVED_ERROR_MEMBERS = readonlySet(['name', 'message', 'stack', 'args', 'with_traceback', 'add_note'])

const PORTABLE_RESERVED_WORDS = readonlySet([
  // ECMAScript reserved words and strict-mode reserved names
  'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do',
  'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in',
  'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var',
  'void', 'while', 'with', 'yield', 'let', 'static', 'implements', 'interface', 'package', 'private',
  'protected', 'public', 'arguments', 'eval',
  // Python keywords and soft keywords
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'def', 'del', 'elif', 'except', 'from', 'global',
  'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'match', 'type', '_',
]) // prettier-ignore

const DEFAULTS = Object.freeze({
  computeMs: 60000,
  maxWallMs: 600000,
  maxOutputBytes: 67108864,
  maxHeapMb: 512,
})

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
const MAX_THREADS = 1024
const MAX_WALL_MS = 2147483647

/** A host-side error's text for a warning; never throws. */
function describeError(error) {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  } catch {
    return 'an unprintable value'
  }
}

function describe(value) {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'symbol') return value.toString()
  if (value === null || typeof value !== 'object') return String(value)
  return Array.isArray(value) ? 'an array' : 'an object'
}

const CONFIG_KEYS = ['computeMs', 'maxWallMs', 'maxOutputBytes', 'maxHeapMb', 'threads']
const SESSION_KEYS = ['computeMs', 'maxWallMs', 'maxOutputBytes', 'maxHeapMb']

/**
 * The runtime's config (`label` 'CodeRuntime config'), or a session's options over the
 * runtime's budgets (`defaults`, label 'CodeRuntime.openSession() options').
 */
function validateConfig(config, label = 'CodeRuntime config', keys = CONFIG_KEYS, defaults = undefined) {
  if (config === undefined || config === null) config = {}
  if (typeof config !== 'object' || Array.isArray(config)) {
    throw new TypeError(`${label} must be an object (got ${describe(config)})`)
  }
  for (const key of Reflect.ownKeys(config)) {
    if (typeof key !== 'string' || !keys.includes(key)) {
      throw new TypeError(`${label} has an unknown key ${describe(String(key))}`)
    }
  }
  const number = (field, fallback, check, rule) => {
    const value = config[field]
    if (value === undefined) return defaults === undefined ? fallback : defaults[field]
    if (typeof value !== 'number') {
      throw new TypeError(`${label}.${field} must be a number (got ${describe(value)})`)
    }
    if (!check(value)) throw new RangeError(`${label}.${field} must be ${rule} (got ${describe(value)})`)
    return value
  }
  const positive = (v) => Number.isFinite(v) && v > 0
  return {
    computeMs: number('computeMs', DEFAULTS.computeMs, positive, 'a positive finite number of milliseconds'),
    maxWallMs: number(
      'maxWallMs',
      DEFAULTS.maxWallMs,
      (v) => positive(v) && v <= MAX_WALL_MS,
      `a positive number of milliseconds, at most ${MAX_WALL_MS}`,
    ),
    maxOutputBytes: number(
      'maxOutputBytes',
      DEFAULTS.maxOutputBytes,
      (v) => Number.isSafeInteger(v) && v >= 4,
      'a safe integer of at least 4 bytes',
    ),
    maxHeapMb: number('maxHeapMb', DEFAULTS.maxHeapMb, positive, 'a positive finite number of megabytes'),
    threads: number(
      'threads',
      defaultThreads(),
      (v) => Number.isInteger(v) && v > 0 && v <= MAX_THREADS,
      `a positive integer, at most ${MAX_THREADS}`,
    ),
  }
}

function defaultThreads() {
  const n = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length
  return Math.max(1, Math.min(n || 1, MAX_THREADS))
}

/** Checks a request; returns the parts the engine needs. Throws TypeError on misuse. */
function validateRequest(request) {
  if (request === null || typeof request !== 'object') {
    throw new TypeError(`CodeRuntime.run() request must be an object (got ${describe(request)})`)
  }
  const { program, bindings, signal, onLog } = request
  if (typeof program !== 'string') {
    throw new TypeError(`CodeRuntime.run() request.program must be a string (got ${describe(program)})`)
  }
  if (!Array.isArray(bindings)) {
    throw new TypeError(`CodeRuntime.run() request.bindings must be an array (got ${describe(bindings)})`)
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`CodeRuntime.run() request.signal must be an AbortSignal (got ${describe(signal)})`)
  }
  if (onLog !== undefined && typeof onLog !== 'function') {
    throw new TypeError(`CodeRuntime.run() request.onLog must be a function (got ${describe(onLog)})`)
  }
  const injected = new Set()
  const namespaces = []
  bindings.forEach((ns, i) => {
    const where = `request.bindings[${i}]`
    if (ns === null || typeof ns !== 'object') {
      throw new TypeError(`CodeRuntime.run() ${where} must be an object (got ${describe(ns)})`)
    }
    const global = ns.global
    checkIdentifier(global, `${where}.global`, 'binding global')
    if (injected.has(global)) throw new TypeError(`CodeRuntime.run() ${where}.global ${describe(global)}: duplicate binding global`)
    injected.add(global)
    const functions = ns.functions
    if (functions === null || typeof functions !== 'object') {
      throw new TypeError(`CodeRuntime.run() ${where}.functions must be an object (got ${describe(functions)})`)
    }
    const members = []
    for (const name of Object.keys(functions)) {
      const fn = functions[name]
      if (typeof fn !== 'function') {
        throw new TypeError(`CodeRuntime.run() ${where}.functions[${describe(name)}] is not a function (got ${describe(fn)})`)
      }
      members.push([name, fn])
    }
    let errorClass
    if (ns.errorClass !== undefined) {
      const ec = ns.errorClass
      if (ec === null || typeof ec !== 'object') {
        throw new TypeError(`CodeRuntime.run() ${where}.errorClass must be an object (got ${describe(ec)})`)
      }
      checkIdentifier(ec.name, `${where}.errorClass.name`, 'error class')
      const member = ec.memberNameProperty
      if (typeof member !== 'string' || member === '' || RESERVED_ERROR_MEMBERS.has(member) || /^__.*__$/.test(member)) {
        throw new TypeError(
          `CodeRuntime.run() ${where}.errorClass: member property ${describe(member)} not usable ` +
            `(it must be a non-empty string, not one of ${[...RESERVED_ERROR_MEMBERS].join(', ')}, and not of the form __x__)`,
        )
      }
      errorClass = { name: ec.name, memberNameProperty: member }
    }
    namespaces.push({ global, members, errorClass, functions })
  })
  for (const [i, ns] of namespaces.entries()) {
    if (!ns.errorClass) continue
    if (injected.has(ns.errorClass.name)) {
      throw new TypeError(
        `CodeRuntime.run() request.bindings[${i}].errorClass.name ${describe(ns.errorClass.name)}: duplicate injected global`,
      )
    }
    injected.add(ns.errorClass.name)
  }
  return { program, namespaces, signal, onLog }
}

function checkIdentifier(name, where, what) {
  const prefix = what === 'error class' ? `error class ${describe(name)}` : describe(name)
  if (typeof name !== 'string' || !IDENTIFIER.test(name) || PORTABLE_RESERVED_WORDS.has(name)) {
    throw new TypeError(`CodeRuntime.run() ${where} ${prefix} is not a usable identifier`)
  }
  if (RESERVED_BINDING_GLOBALS.has(name)) {
    throw new TypeError(`CodeRuntime.run() ${where} ${prefix}: reserved binding global`)
  }
}

/**
 * The JSON text of a value `isLossless` accepted (or of an array of such values). Checked:
 * only plain data, so the engine's own JSON.stringify gives exactly that text, unless
 * something gave the prototypes a `toJSON` (then `writeLosslessJson` writes it).
 */
function checkedJson(value) {
  if (ObjectPrototype.toJSON === undefined && ArrayPrototype.toJSON === undefined) {
    try {
      return jsonStringify(value)
    } catch {
      // V8's JSON.stringify recurses: a value nested thousands deep overflows its stack.
    }
  }
  return writeLosslessJson(value)
}

const ObjectPrototype = Object.prototype
const ArrayPrototype = Array.prototype
const { getPrototypeOf, getOwnPropertyNames, getOwnPropertySymbols, keys: objectKeys, is: sameValue } = Object
const { isArray } = Array
const { ownKeys } = Reflect
const lookupGetter = Object.prototype.__lookupGetter__
const lookupSetter = Object.prototype.__lookupSetter__
const isEnumerable = Object.prototype.propertyIsEnumerable

// The walk's state, shared by every `isLossless` call: the walk runs no other code (no
// getter, trap or `toJSON`), so calls never nest, and answering a binding call allocates no
// set or stack of its own. `losslessStack` holds frames of FRAME slots, flattened: the
// object, its keys, the next key's index, and whether each key still needs checking (an
// array's, from Reflect.ownKeys; an object's were checked as a whole). Its first
// `losslessTop` slots are in use; the array never shrinks (setting an array's length is a
// call into the runtime, a measurable share of answering a call), and slots are emptied as
// frames leave. An object's ancestors are found by scanning the stack, and only those
// deeper than LOSSLESS_SCANNED_DEPTH levels also go into `losslessDeep`.
const losslessStack = []
let losslessTop = 0
const losslessDeep = new Set()
const FRAME = 4
const LOSSLESS_SCANNED_DEPTH = 32

/** Whether `v` is already on the walk's path (a cycle). */
function onLosslessPath(v) {
  const stack = losslessStack
  const scanned = Math.min(losslessTop, FRAME * LOSSLESS_SCANNED_DEPTH)
  for (let j = 0; j < scanned; j += FRAME) if (stack[j] === v) return true
  return losslessDeep.size !== 0 && losslessDeep.has(v)
}

/** Whether `v` may be part of lossless JSON; an object is pushed for its keys to be read. */
function acceptLossless(v) {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true
    case 'number':
      return Number.isFinite(v) && !sameValue(v, -0)
    case 'object': {
      if (v === null) return true
      if (types.isProxy(v) || onLosslessPath(v)) return false
      const proto = getPrototypeOf(v)
      const array = isArray(v)
      let keys
      if (array) {
        keys = ownKeys(v)
        if (proto !== ArrayPrototype || keys.length !== v.length + 1) return false
        keys.pop() // 'length', last of an array's own keys
      } else {
        if (proto !== ObjectPrototype && proto !== null) return false
        // No own symbols, and as many enumerable names as names: every own key is an
        // enumerable string (together a fraction of Reflect.ownKeys' cost).
        if (getOwnPropertySymbols(v).length !== 0) return false
        keys = objectKeys(v)
        if (getOwnPropertyNames(v).length !== keys.length) return false
      }
      const top = losslessTop
      if (top >= FRAME * LOSSLESS_SCANNED_DEPTH) losslessDeep.add(v)
      losslessStack[top] = v
      losslessStack[top + 1] = keys
      losslessStack[top + 2] = 0
      losslessStack[top + 3] = array
      losslessTop = top + FRAME
      return true
    }
    default:
      return false
  }
}

/**
 * Whether `root` is lossless JSON (SPEC "Lossless JSON"): iterative, reads no getter (own
 * accessors are refused by looking them up, not calling them), no Proxy, no cycle.
 */
function isLossless(root) {
  if (typeof root !== 'object' || root === null) return acceptLossless(root)
  const stack = losslessStack
  try {
    if (!acceptLossless(root)) return false
    while (losslessTop > 0) {
      const top = losslessTop - FRAME
      const obj = stack[top]
      const keys = stack[top + 1]
      const i = stack[top + 2]
      if (i === keys.length) {
        stack[top] = undefined
        stack[top + 1] = undefined
        losslessTop = top
        if (top >= FRAME * LOSSLESS_SCANNED_DEPTH) losslessDeep.delete(obj)
        continue
      }
      stack[top + 2] = i + 1
      const key = keys[i]
      if (stack[top + 3] && (typeof key !== 'string' || !isEnumerable.call(obj, key))) return false
      if (lookupGetter.call(obj, key) !== undefined || lookupSetter.call(obj, key) !== undefined) return false
      if (!acceptLossless(obj[key])) return false
    }
    return true
  } finally {
    // A refusal leaves frames behind.
    for (let j = 0; j < losslessTop; j++) stack[j] = undefined
    losslessTop = 0
    if (losslessDeep.size !== 0) losslessDeep.clear()
  }
}

/** The JSON text of a value `isLossless` accepted, written without `toJSON`. */
function writeLosslessJson(root) {
  let out = ''
  const stack = []
  const open = (v) => {
    if (typeof v !== 'object' || v === null) {
      out += jsonStringify(v)
      return
    }
    const array = Array.isArray(v)
    const keys = array ? null : ownKeys(v)
    out += array ? '[' : '{'
    stack.push({ obj: v, keys, i: 0, len: array ? v.length : keys.length })
  }
  open(root)
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]
    if (frame.i === frame.len) {
      out += frame.keys === null ? ']' : '}'
      stack.pop()
      continue
    }
    const key = frame.keys === null ? frame.i : frame.keys[frame.i]
    if (frame.i > 0) out += ','
    if (frame.keys !== null) out += jsonStringify(key) + ':'
    frame.i++
    open(frame.obj[key])
  }
  return out
}

/**
 * The JSON text of a binding's resolved value when it is lossless JSON, else undefined (also
 * when reading it throws). Iterative (a 10,000-deep value is fine) and reads own property
 * descriptors only, so no getter, `toJSON` or Proxy trap runs.
 */
function answerJson(value) {
  try {
    return isLossless(value) ? checkedJson(value) : undefined
  } catch {
    return undefined
  }
}

/** `isLossless` for a binding's resolved value: false also when reading it throws. */
function isLosslessAnswer(value) {
  try {
    return isLossless(value)
  } catch {
    return false
  }
}

/**
 * The JSON array of `values` (the batch's accepted values, in the order of its calls marked
 * ok) written one by one; a value that fails becomes a refusal: its call's mark is cleared
 * and the message goes to its place among the rejections.
 */
function eachAnswerJson(values, oks, messages) {
  const texts = []
  let v = 0
  let rejected = 0
  for (let i = 0; i < oks.length; i++) {
    if (oks[i] === 0) {
      rejected++
      continue
    }
    let text
    try {
      text = checkedJson(values[v++])
    } catch {
      text = undefined
    }
    if (text === undefined) {
      oks[i] = 0
      messages.splice(rejected++, 0, BINDING_RESOLUTION_NOT_LOSSLESS)
    } else texts.push(text)
  }
  return `[${texts.join(',')}]`
}

function unreadableResult(error) {
  return { logs: [], error: { kind: 'worker-exit', message: `the result could not be read: ${error}` } }
}

function rejectionMessage(reason) {
  try {
    if (reason instanceof Error || types.isNativeError(reason)) return String(reason.message)
    return String(reason)
  } catch {
    return UNPRINTABLE_REJECTION
  }
}

function abortMessage(signal) {
  try {
    return String(signal.reason)
  } catch {
    return 'the run was aborted (its abort reason could not be converted to a string)'
  }
}

const asyncDispose = Symbol.asyncDispose ?? Symbol.for('nodejs.asyncDispose')

const SESSION_TOKEN = Symbol('CodeSession')
const ABANDON = Symbol('abandon')
const RUNTIME_DISPOSED = 'runtime disposed'
const SESSION_DISPOSED = 'session disposed'
const SESSION_GONE = 'the session is dead: it was disposed or its engine failed'

/**
 * A persistent JavaScript world (see index.d.ts): its runs execute one at a time, in call
 * order, each seeing what the earlier ones left.
 */
class CodeSession {
  #launch
  #close
  /** Settles once every run asked for so far has settled. */
  #tail = RESOLVED
  #disposed = false
  /** Why later runs cannot happen: `{ kind, message }` of the failure they end with. */
  #ended = null
  #disposing = null

  constructor(token, launch, close) {
    if (token !== SESSION_TOKEN) throw new TypeError('CodeSession is created by CodeRuntime.openSession()')
    this.#launch = launch
    this.#close = close
  }

  run(request) {
    return new Promise((resolve) => {
      if (this.#disposed) throw new Error('CodeSession.run() called after disposal')
      const validated = validateRequest(request)
      const turn = this.#tail.then(
        () =>
          new Promise((done) => {
            if (this.#ended !== null) {
              done({ logs: [], error: { ...this.#ended } })
              return
            }
            try {
              this.#launch(validated, (result) => {
                const kind = result.error?.kind
                // A run that exhausted the heap (or met an engine failure) killed the world.
                if (kind === 'worker-exit' && this.#ended === null) {
                  this.#ended = { kind: 'worker-exit', message: `the session is dead: ${result.error.message}` }
                }
                done(result)
              })
            } catch (error) {
              done({ logs: [], error: { kind: 'worker-exit', message: `the session could not start a run: ${describeError(error)}` } })
            }
          }),
      )
      this.#tail = turn.then(NOOP, NOOP)
      resolve(turn)
    })
  }

  /** Ends the session: a run in progress ends as `abort` (`session disposed`), queued ones too. */
  dispose() {
    if (this.#disposing === null) {
      this[ABANDON](SESSION_DISPOSED)
      this.#disposing = this.#tail.then(NOOP)
    }
    return this.#disposing
  }

  [ABANDON](reason) {
    if (this.#disposed) return
    this.#disposed = true
    if (this.#ended === null) this.#ended = { kind: 'abort', message: reason }
    this.#close(this, reason)
  }

  [asyncDispose]() {
    return this.dispose()
  }
}

Object.defineProperty(CodeSession.prototype, Symbol.toStringTag, { value: 'CodeSession' })

class CodeRuntime {
  #config
  #engine
  #engineId
  #runs = new Map()
  #keepAlive = null
  #disposed = false
  #disposing = null
  #stats = {
    started: 0,
    settled: { ok: 0, exception: 0, timeout: 0, abort: 0, 'worker-exit': 0, 'invalid-output': 0, 'output-limit': 0 },
    hostCalls: 0,
    /** Latencies (ms) of the last LATENCY_WINDOW runs, a ring. */
    latencies: new Float64Array(LATENCY_WINDOW),
    latencyCount: 0,
  }

  /** @param {import('./index').CodeRuntimeConfig} [config] */
  constructor(config) {
    this.#config = validateConfig(config)
    this.#engine = new NativeEngine(this.#config.threads, (events) => this.#dispatch(events))
    this.#engineId = this.#engine.id
  }

  get language() {
    return 'typescript'
  }

  get isolation() {
    return 'quickjs'
  }

  run(request) {
    return new Promise((resolve) => {
      if (this.#disposed) throw new Error('CodeRuntime.run() called after disposal')
      const validated = validateRequest(request)
      const config = this.#config
      this.#launch(validated, config, resolve, (specs) =>
        native.start(
          this.#engineId,
          validated.program,
          specs,
          config.computeMs,
          config.maxWallMs,
          config.maxOutputBytes,
          config.maxHeapMb,
          validated.onLog !== undefined,
        ),
      )
    })
  }

  /**
   * Opens a persistent session (see index.d.ts). `options` may narrow or widen the runtime's
   * budgets for the session's runs (`maxHeapMb` applies to the session as a whole).
   */
  openSession(options) {
    if (this.#disposed) throw new Error('CodeRuntime.openSession() called after disposal')
    const config = validateConfig(options, 'CodeRuntime.openSession() options', SESSION_KEYS, this.#config)
    const sessionId = native.openSession(this.#engineId, config.computeMs, config.maxWallMs, config.maxOutputBytes, config.maxHeapMb)
    const launch = (validated, resolve) =>
      this.#launch(validated, config, resolve, (specs) =>
        native.startInSession(this.#engineId, sessionId, validated.program, specs, validated.onLog !== undefined),
      )
    const close = (session, reason) => {
      this.#sessions.delete(session)
      try {
        native.closeSession(this.#engineId, sessionId, reason)
      } catch {}
    }
    const session = new CodeSession(SESSION_TOKEN, launch, close)
    this.#sessions.add(session)
    return session
  }

  #sessions = new Set()

  /**
   * Starts a validated request with `start(specs)` (which returns the run's id, or -1 when a
   * session is gone) and settles it through `resolve`.
   */
  #launch(validated, config, resolve, start) {
    const { namespaces, signal, onLog } = validated
    if (signal?.aborted) {
      const result = JSON.parse(resultWithoutRunning('abort', abortMessage(signal), config.maxOutputBytes))
      this.#stats.started++
      this.#count(result, 0)
      resolve(result)
      return
    }
    const functions = []
    const specs = namespaces.map((ns) => {
      for (const [, fn] of ns.members) functions.push([fn, ns.functions])
      return {
        global: ns.global,
        members: ns.members.map(([name]) => name),
        errorClassName: ns.errorClass?.name,
        memberNameProperty: ns.errorClass?.memberNameProperty,
      }
    })
    const id = start(specs)
    this.#stats.started++
    if (id === -1) {
      const result = { logs: [], error: { kind: 'worker-exit', message: SESSION_GONE } }
      this.#count(result, 0)
      resolve(result)
      return
    }
    const entry = { resolve, signal, onAbort: null, functions, onLog, onLogFailed: false, startedAt: performance.now() }
    if (signal) {
      entry.onAbort = () => {
        try {
          native.abort(this.#engineId, id, abortMessage(signal))
        } catch (error) {
          this.#engineFailed(id, error)
        }
      }
      signal.addEventListener('abort', entry.onAbort, { once: true })
    }
    this.#runs.set(id, entry)
    if (this.#keepAlive === null) this.#keepAlive = setInterval(() => {}, MAX_WALL_MS)
  }

  /**
   * Events from the engine, each the JSON text `[0, runId, result]` (the run settled) or
   * `[1, runId, [[callId, functionIndex, …], [argument, …]]]` (the program called bindings).
   */
  #dispatch(events) {
    for (let i = 0; i < events.length; i++) {
      let event
      try {
        event = jsonParse(events[i])
      } catch (error) {
        const header = /^\[0,(\d+),/.exec(events[i])
        if (header !== null) this.#settled(Number(header[1]), unreadableResult(error))
        continue
      }
      if (event[0] === EVENT_SETTLED) this.#settled(event[1], event[2])
      else if (event[0] === EVENT_LOGS) this.#liveLogs(event[1], event[2])
      else this.#calls(event[1], event[2])
    }
  }

  /** Hands live log entries to the run's `onLog`; a throwing `onLog` is reported once. */
  #liveLogs(runId, entries) {
    const entry = this.#runs.get(runId)
    if (!entry || entry.onLog === undefined) return
    for (let i = 0; i < entries.length; i++) {
      try {
        reflectApply(entry.onLog, undefined, [entries[i]])
      } catch (error) {
        if (entry.onLogFailed) continue
        entry.onLogFailed = true
        process.emitWarning(`CodeRuntime.run() request.onLog threw; later entries of this run are still delivered and kept in result.logs: ${describeError(error)}`, {
          code: 'CODE_RUNTIME_ONLOG_THREW',
        })
      }
    }
  }

  #calls(runId, parsed) {
    const entry = this.#runs.get(runId)
    if (!entry) return
    const ids = parsed[0]
    const args = parsed[1]
    this.#stats.hostCalls += args.length
    for (let i = 0; i < args.length; i++) {
      const callId = ids[2 * i]
      const target = entry.functions[ids[2 * i + 1]]
      const onValue = (value) => this.#answer(runId, callId, true, value)
      const onReason = (reason) => this.#answer(runId, callId, false, rejectionMessage(reason))
      let result
      try {
        result = reflectApply(target[0], target[1], [args[i]])
      } catch (error) {
        onReason(error)
        continue
      }
      if (result instanceof Promise) result.then(onValue, onReason)
      else Promise.resolve(result).then(onValue, onReason)
    }
  }

  /**
   * Answers wait here, per run, until the current microtasks have run; then one crossing
   * per run settles them all. (A resolved promise's `then` schedules the flush: Node's
   * `queueMicrotask` creates an async resource per call, a measurable share of a call.)
   * An answer is the resolved value or the rejection message; values are checked and
   * written as JSON at the flush, all of a batch's with one JSON.stringify (each call of
   * which allocates outside the JavaScript heap).
   */
  #outgoing = new Map()
  #flushScheduled = false
  #answer(runId, callId, ok, answer) {
    // A resolution that arrives after the run settled is dropped.
    if (!this.#runs.has(runId)) return
    let batch = this.#outgoing.get(runId)
    if (batch === undefined) {
      batch = { ids: [], oks: [], answers: [] }
      this.#outgoing.set(runId, batch)
      if (!this.#flushScheduled) {
        this.#flushScheduled = true
        RESOLVED.then(this.#flush)
      }
    }
    batch.ids.push(callId)
    batch.oks.push(ok ? 1 : 0)
    batch.answers.push(answer)
  }

  #flush = () => {
    this.#flushScheduled = false
    const batches = this.#outgoing
    this.#outgoing = new Map()
    let left = batches.size
    let events
    for (const [runId, batch] of batches) {
      left--
      if (!this.#runs.has(runId)) continue
      // Only the last answer of the turn may wait for what comes back.
      const wait = left === 0 ? this.#waitMicros() : 0
      try {
        events = this.#settleBatch(runId, batch, wait)
      } catch (error) {
        this.#engineFailed(runId, error)
        events = undefined
        continue
      }
      if (wait !== 0) this.#lastWaitPaid = events != null
    }
    if (events != null) this.#dispatch(events)
    else this.#pollBriefly()
  }

  #settleBatch(runId, batch, wait) {
    const { ids, oks, answers } = batch
    if (ids.length === 1) {
      let ok = oks[0] === 1
      let text = answers[0]
      if (ok) {
        text = answerJson(text)
        if (text === undefined) {
          ok = false
          text = BINDING_RESOLUTION_NOT_LOSSLESS
        }
      }
      return native.settleCall(this.#engineId, runId, ids[0], ok, text, wait)
    }
    const values = []
    const messages = []
    for (let i = 0; i < ids.length; i++) {
      if (oks[i] === 1 && isLosslessAnswer(answers[i])) values.push(answers[i])
      else {
        messages.push(oks[i] === 1 ? BINDING_RESOLUTION_NOT_LOSSLESS : answers[i])
        oks[i] = 0
      }
    }
    let text
    try {
      text = checkedJson(values)
    } catch {
      text = undefined
    }
    // Unwritable as a whole (a toJSON getter that throws): each value alone, or refused.
    if (text === undefined) text = eachAnswerJson(values, oks, messages)
    return native.settleCalls(this.#engineId, runId, Uint32Array.from(ids), Uint8Array.from(oks), text, messages, wait)
  }

  /**
   * A call into the engine for run `id` threw (a Rust panic caught at the Node-API edge):
   * the run ends as `worker-exit` now, and the engine is told to drop it.
   */
  #engineFailed(id, error) {
    try {
      native.abort(this.#engineId, id, 'engine failure')
    } catch {}
    const detail = error instanceof Error ? error.message : String(error)
    this.#settled(id, {
      logs: [],
      error: { kind: 'worker-exit', message: `the engine failed unexpectedly and the run was stopped: ${detail}` },
    })
  }

  #lastWaitPaid = true
  #unpaidWaits = 0
  #chainStart = 0
  #endChain = () => {
    this.#chainStart = 0
  }
  /**
   * How long `settleCall` should wait for the engine's next event. Worth it while waits keep
   * paying off (a run calling in a loop); after one that did not, only every eighth answer
   * tries again. A chain of direct hand-offs runs inside one event-loop turn, so it is cut
   * after MAX_CHAIN_MS to let timers and I/O in.
   */
  #waitMicros() {
    if (!this.#lastWaitPaid && (++this.#unpaidWaits & 7) !== 0) return 0
    const now = performance.now()
    if (this.#chainStart === 0) {
      this.#chainStart = now
      setImmediate(this.#endChain)
    } else if (now - this.#chainStart > MAX_CHAIN_MS) {
      return 0
    }
    return WAIT_FOR_NEXT_CALL_MICROS
  }

  #pollUntil = 0
  /**
   * A run answered by the host usually calls again within microseconds. Keeping the event
   * loop polling (without sleeping) for a moment lets that next call in without the cost of
   * waking an idle thread, which dominates a sequential call's latency.
   */
  #pollBriefly() {
    const polling = this.#pollUntil !== 0
    this.#pollUntil = performance.now() + POLL_AFTER_ANSWER_MS
    if (polling) return
    const poll = () => {
      if (performance.now() < this.#pollUntil && this.#runs.size > 0) setImmediate(poll)
      else this.#pollUntil = 0
    }
    setImmediate(poll)
  }

  #settled(id, result) {
    const entry = this.#runs.get(id)
    if (!entry) return
    this.#runs.delete(id)
    if (entry.onAbort) entry.signal.removeEventListener('abort', entry.onAbort)
    if (this.#runs.size === 0 && this.#keepAlive !== null) {
      clearInterval(this.#keepAlive)
      this.#keepAlive = null
    }
    this.#count(result, performance.now() - entry.startedAt)
    entry.resolve(result)
  }

  #count(result, latencyMs) {
    const stats = this.#stats
    const kind = result.error === undefined ? 'ok' : result.error.kind
    if (kind in stats.settled) stats.settled[kind]++
    stats.latencies[stats.latencyCount % LATENCY_WINDOW] = latencyMs
    stats.latencyCount++
  }

  metrics() {
    const stats = this.#stats
    const [threads, ready, queued, , cpuMs] = this.#engine.metrics()
    const n = Math.min(stats.latencyCount, LATENCY_WINDOW)
    const recent = stats.latencies.slice(0, n).sort()
    const percentile = (p) => (n === 0 ? null : recent[Math.min(n - 1, Math.ceil((p / 100) * n) - 1)])
    return {
      runs: { started: stats.started, inFlight: this.#runs.size, settled: { ...stats.settled } },
      sessions: { open: this.#sessionsOpen() },
      threads: { total: threads, ready, busy: threads - ready, queuedSlices: queued },
      hostCalls: stats.hostCalls,
      cpuMs,
      latencyMs: { p50: percentile(50), p99: percentile(99), window: n },
    }
  }

  #sessionsOpen() {
    return this.#sessions.size
  }

  dispose() {
    for (const session of this.#sessions) session[ABANDON](RUNTIME_DISPOSED)
    this.#sessions.clear()
    this.#disposed = true
    if (this.#disposing === null) {
      this.#disposing = new Promise((resolve) => this.#engine.dispose(resolve))
    }
    return this.#disposing
  }

  [asyncDispose]() {
    return this.dispose()
  }
}

Object.defineProperty(CodeRuntime.prototype, Symbol.toStringTag, { value: 'CodeRuntime' })

module.exports.CodeRuntime = CodeRuntime
module.exports.CodeSession = CodeSession
module.exports.RESERVED_BINDING_GLOBALS = RESERVED_BINDING_GLOBALS
module.exports.RESERVED_ERROR_MEMBERS = RESERVED_ERROR_MEMBERS
module.exports.PORTABLE_RESERVED_WORDS = PORTABLE_RESERVED_WORDS
