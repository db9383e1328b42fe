'use strict'
// Validation of what the caller hands us: the runtime's config, a session's options and a
// run's request, each checked once with a message naming the field; plus the contract's
// reserved-name sets and the describers those messages use. Requires nothing native.

const os = require('node:os')

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
  maxProgramBytes: 1048576,
})

/** The failure of a program over `maxProgramBytes`, which is never transformed. */
const programTooLarge = (bytes, max) =>
  `program is ${bytes} bytes of UTF-8, over the maxProgramBytes limit of ${max} bytes`

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

const CONFIG_KEYS = ['computeMs', 'maxWallMs', 'maxOutputBytes', 'maxHeapMb', 'maxProgramBytes', 'threads']
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
    maxProgramBytes: number(
      'maxProgramBytes',
      DEFAULTS.maxProgramBytes,
      (v) => Number.isSafeInteger(v) && v > 0,
      'a positive safe integer of bytes',
    ),
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


module.exports = {
  programTooLarge,
  RESERVED_BINDING_GLOBALS,
  RESERVED_ERROR_MEMBERS,
  PORTABLE_RESERVED_WORDS,
  MAX_WALL_MS,
  SESSION_KEYS,
  describeError,
  validateConfig,
  validateRequest,
}
