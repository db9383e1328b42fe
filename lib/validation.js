'use strict'
// Validation of what the caller hands us: the runtime's config, a session's options and a
// run's request, each checked once with a message naming the field; plus the contract's
// reserved-name sets and the describers those messages use. Requires nothing native but
// the time zone database (`canonicalTimeZone`), asked only when a config names a zone.

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
  timeZone: 'UTC',
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

/** A caller's value in a message, without running any of its code (no getter, trap or toString). */
function describe(value) {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'bigint':
      return `${value}n`
    case 'symbol':
      return value.toString()
    case 'function':
      return 'a function'
    case 'object':
      if (value === null) return 'null'
      try {
        return Array.isArray(value) ? 'an array' : 'an object'
      } catch {
        return 'a revoked Proxy'
      }
    default:
      return String(value)
  }
}

/**
 * Errors the caller's own objects caused (a getter or trap that threw, a value that failed
 * validation, a signal method that threw): `run()` rejects with them.
 */
const CALLER_ERRORS = new WeakSet()
function callerError(message, Type = TypeError) {
  const error = new Type(message)
  CALLER_ERRORS.add(error)
  return error
}
const isCallerError = (error) => CALLER_ERRORS.has(error)

/**
 * `object[key]`, read once; a getter or Proxy trap that throws becomes a TypeError naming
 * the field. Every value of the caller's is read through here exactly once, and only the
 * copy is validated and used (a getter answering differently the second time has no say).
 */
function read(object, key, where) {
  try {
    return object[key]
  } catch (error) {
    throw callerError(`${where} could not be read: ${describeError(error)}`)
  }
}

const CONFIG_KEYS = ['computeMs', 'maxWallMs', 'maxOutputBytes', 'maxHeapMb', 'maxProgramBytes', 'threads', 'timeZone']
const SESSION_KEYS = ['computeMs', 'maxWallMs', 'maxOutputBytes', 'maxHeapMb']

/**
 * The runtime's config (`label` 'CodeRuntime config'), or a session's options over the
 * runtime's budgets (`defaults`, label 'CodeRuntime.openSession() options'). Each key is
 * read once, and the copy is checked.
 */
function validateConfig(config, label = 'CodeRuntime config', keys = CONFIG_KEYS, defaults = undefined) {
  if (config === undefined || config === null) config = {}
  if (typeof config !== 'object' || isArrayOrThrow(config, label)) {
    throw callerError(`${label} must be an object (got ${describe(config)})`)
  }
  let own
  try {
    own = Reflect.ownKeys(config)
  } catch (error) {
    throw callerError(`${label}'s keys could not be read: ${describeError(error)}`)
  }
  for (const key of own) {
    if (typeof key !== 'string' || !keys.includes(key)) {
      throw callerError(`${label} has an unknown key ${describe(String(key))}`)
    }
  }
  const copy = {}
  for (const key of keys) copy[key] = read(config, key, `${label}.${key}`)
  const number = (field, fallback, check, rule) => {
    const value = copy[field]
    if (value === undefined) return defaults === undefined ? fallback : defaults[field]
    if (typeof value !== 'number') {
      throw callerError(`${label}.${field} must be a number (got ${describe(value)})`)
    }
    if (!check(value)) throw callerError(`${label}.${field} must be ${rule} (got ${describe(value)})`, RangeError)
    return value
  }
  const positive = (v) => Number.isFinite(v) && v > 0
  const checked = {
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
  if (keys.includes('timeZone')) checked.timeZone = timeZone(copy.timeZone, `${label}.timeZone`)
  return checked
}

/**
 * A config's `timeZone`: an IANA name the database compiled into the addon knows, in any
 * ASCII case; returns the database's spelling (`UTC` for UTC's aliases). The host's own
 * zone (`TZ`) never enters: left out, it is UTC.
 */
function timeZone(value, where) {
  if (value === undefined) return DEFAULTS.timeZone
  if (typeof value !== 'string') {
    throw callerError(`${where} must be a string naming an IANA time zone (got ${describe(value)})`)
  }
  const canonical = require('./loader.js').canonicalTimeZone(value)
  if (typeof canonical !== 'string') {
    throw callerError(
      `${where} must be an IANA time zone name such as 'UTC', 'Europe/Berlin' or 'America/New_York' (got ${describe(value)})`,
      RangeError,
    )
  }
  return canonical
}

/** `Array.isArray(value)`, which throws for a revoked Proxy: that becomes a TypeError naming `where`. */
function isArrayOrThrow(value, where) {
  try {
    return Array.isArray(value)
  } catch (error) {
    throw callerError(`${where} could not be read: ${describeError(error)}`)
  }
}

function defaultThreads() {
  const n = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length
  return Math.max(1, Math.min(n || 1, MAX_THREADS))
}

const RUN = 'CodeRuntime.run()'
/** Array lengths a bindings array (or a Proxy of one) may claim. */
const MAX_ARRAY_LENGTH = 2 ** 32 - 1

/**
 * Checks a request; returns a copy of the parts the engine needs. Every field of the request,
 * its namespaces, their functions and error classes is read exactly once (getters and Proxy
 * traps included), and only the copy is checked and used. Throws a TypeError naming the field
 * on misuse, or when reading a field threw.
 */
function validateRequest(request) {
  if (request === null || typeof request !== 'object') {
    throw callerError(`${RUN} request must be an object (got ${describe(request)})`)
  }
  const program = read(request, 'program', `${RUN} request.program`)
  const bindings = read(request, 'bindings', `${RUN} request.bindings`)
  const signal = read(request, 'signal', `${RUN} request.signal`)
  const onLog = read(request, 'onLog', `${RUN} request.onLog`)
  if (typeof program !== 'string') {
    throw callerError(`${RUN} request.program must be a string (got ${describe(program)})`)
  }
  if (typeof bindings !== 'object' || bindings === null || !isArrayOrThrow(bindings, `${RUN} request.bindings`)) {
    throw callerError(`${RUN} request.bindings must be an array (got ${describe(bindings)})`)
  }
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw callerError(`${RUN} request.signal must be an AbortSignal (got ${describe(signal)})`)
  }
  if (onLog !== undefined && typeof onLog !== 'function') {
    throw callerError(`${RUN} request.onLog must be a function (got ${describe(onLog)})`)
  }
  const length = read(bindings, 'length', `${RUN} request.bindings.length`)
  if (!Number.isInteger(length) || length < 0 || length > MAX_ARRAY_LENGTH) {
    throw callerError(`${RUN} request.bindings.length must be an array length (got ${describe(length)})`)
  }
  const injected = new Set()
  const namespaces = []
  for (let i = 0; i < length; i++) {
    const where = `${RUN} request.bindings[${i}]`
    const ns = read(bindings, i, where)
    if (ns === null || typeof ns !== 'object') {
      throw callerError(`${where} must be an object (got ${describe(ns)})`)
    }
    const global = read(ns, 'global', `${where}.global`)
    const functions = read(ns, 'functions', `${where}.functions`)
    const errorClassObject = read(ns, 'errorClass', `${where}.errorClass`)
    checkIdentifier(global, `${where}.global`, 'binding global')
    if (injected.has(global)) throw callerError(`${where}.global ${describe(global)}: duplicate binding global`)
    injected.add(global)
    if (functions === null || typeof functions !== 'object') {
      throw callerError(`${where}.functions must be an object (got ${describe(functions)})`)
    }
    let names
    try {
      names = Object.keys(functions)
    } catch (error) {
      throw callerError(`${where}.functions' keys could not be read: ${describeError(error)}`)
    }
    const members = []
    for (const name of names) {
      const fn = read(functions, name, `${where}.functions[${describe(name)}]`)
      if (typeof fn !== 'function') {
        throw callerError(`${where}.functions[${describe(name)}] is not a function (got ${describe(fn)})`)
      }
      members.push([name, fn])
    }
    let errorClass
    if (errorClassObject !== undefined) {
      const ec = errorClassObject
      if (ec === null || typeof ec !== 'object') {
        throw callerError(`${where}.errorClass must be an object (got ${describe(ec)})`)
      }
      const name = read(ec, 'name', `${where}.errorClass.name`)
      const member = read(ec, 'memberNameProperty', `${where}.errorClass.memberNameProperty`)
      checkIdentifier(name, `${where}.errorClass.name`, 'error class')
      if (typeof member !== 'string' || member === '' || RESERVED_ERROR_MEMBERS.has(member) || /^__.*__$/.test(member)) {
        throw callerError(
          `${where}.errorClass: member property ${describe(member)} not usable ` +
            `(it must be a non-empty string, not one of ${[...RESERVED_ERROR_MEMBERS].join(', ')}, and not of the form __x__)`,
        )
      }
      errorClass = { name, memberNameProperty: member }
    }
    namespaces.push({ global, members, errorClass, functions })
  }
  for (const [i, ns] of namespaces.entries()) {
    if (!ns.errorClass) continue
    if (injected.has(ns.errorClass.name)) {
      throw callerError(`${RUN} request.bindings[${i}].errorClass.name ${describe(ns.errorClass.name)}: duplicate injected global`)
    }
    injected.add(ns.errorClass.name)
  }
  return { program, namespaces, signal, onLog }
}

/** `value instanceof AbortSignal`, which runs a Proxy's getPrototypeOf trap: one that throws is a TypeError naming the signal. */
function isAbortSignal(value) {
  try {
    return value instanceof AbortSignal
  } catch (error) {
    throw callerError(`${RUN} request.signal could not be read: ${describeError(error)}`)
  }
}

function checkIdentifier(name, where, what) {
  const prefix = what === 'error class' ? `error class ${describe(name)}` : describe(name)
  if (typeof name !== 'string' || !IDENTIFIER.test(name) || PORTABLE_RESERVED_WORDS.has(name)) {
    throw callerError(`${where} ${prefix} is not a usable identifier`)
  }
  if (RESERVED_BINDING_GLOBALS.has(name)) {
    throw callerError(`${where} ${prefix}: reserved binding global`)
  }
}


module.exports = {
  programTooLarge,
  RESERVED_BINDING_GLOBALS,
  RESERVED_ERROR_MEMBERS,
  PORTABLE_RESERVED_WORDS,
  MAX_WALL_MS,
  SESSION_KEYS,
  callerError,
  describeError,
  isCallerError,
  read,
  validateConfig,
  validateRequest,
}
