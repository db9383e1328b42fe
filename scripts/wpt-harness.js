// A testharness.js-compatible harness for running Web Platform Tests files as one program,
// in CodeRuntime and in plain Node alike (scripts/wpt.mjs builds the program). It is written
// here, not copied: the subset of WPT's testharness.js API the runtime's areas use, with the
// same verdicts (`node scripts/wpt.mjs --check` compares them with WPT's own testharness.js).
//
// The program defines `__wpt` (resources by path, scripts in order) before this text; each
// script runs as a classic script (indirect eval, global scope), a finished subtest is logged
// as one `\u0001WPT[status, name, message]` line, and the last line is `\u0001WPT-END`.
const __wptHarness = (() => {
  const G = globalThis
  const PASS = 0
  const FAIL = 1
  const TIMEOUT = 2
  const NOTRUN = 3
  const PRECONDITION_FAILED = 4
  const log = console.log

  class AssertionError extends Error {}
  AssertionError.prototype.name = 'AssertionError'
  class OptionalFeatureUnsupportedError extends AssertionError {}

  const replacements = {
    0: '0', 1: 'x01', 2: 'x02', 3: 'x03', 4: 'x04', 5: 'x05', 6: 'x06', 7: 'x07', 8: 'b', 9: 't',
    10: 'n', 11: 'v', 12: 'f', 13: 'r', 14: 'x0e', 15: 'x0f', 16: 'x10', 17: 'x11', 18: 'x12',
    19: 'x13', 20: 'x14', 21: 'x15', 22: 'x16', 23: 'x17', 24: 'x18', 25: 'x19', 26: 'x1a',
    27: 'x1b', 28: 'x1c', 29: 'x1d', 30: 'x1e', 31: 'x1f', 0xfffd: 'ufffd', 0xfffe: 'ufffe', 0xffff: 'uffff',
  } // prettier-ignore
  const escapes = { '\\': '\\\\', '"': '\\"' }
  for (const p in replacements) escapes[String.fromCharCode(p)] = `\\${replacements[p]}`
  const escapePattern = new RegExp(`[${Object.keys(escapes).map((k) => (k === '\\' ? '\\\\' : k)).join('')}]`, 'g')
  const truncate = (s, n) => (s.length > n ? `${s.substring(0, n - 3)}...` : s)

  function format_value(val, seen = []) {
    if (typeof val === 'object' && val !== null) {
      if (seen.indexOf(val) >= 0) return '[...]'
      seen.push(val)
    }
    if (Array.isArray(val)) {
      let out = '['
      if (val.beginEllipsis !== undefined) out += '…, '
      out += val.map((x) => format_value(x, seen)).join(', ')
      if (val.endEllipsis !== undefined) out += ', …'
      return `${out}]`
    }
    switch (typeof val) {
      case 'string':
        return `"${val.replace(escapePattern, (m) => escapes[m])}"`
      case 'boolean':
      case 'undefined':
        return String(val)
      case 'number':
        return val === 0 && 1 / val === -Infinity ? '-0' : String(val)
      case 'bigint':
        return `${val}n`
      case 'object':
        if (val === null) return 'null'
      // falls through
      default:
        try {
          return `${typeof val} "${truncate(String(val), 1000)}"`
        } catch (e) {
          return `[stringifying object threw ${String(e)} with type ${String(typeof e)}]`
        }
    }
  }

  function assert(ok, name, description, message, subs) {
    if (ok) return
    const text = String(message).replace(/\$\{([^}]+)\}/g, (_, k) => format_value(subs?.[k]))
    throw new AssertionError(`${name}: ${description ? `${description} ` : ''}${text}`)
  }
  function same_value(x, y) {
    if (y !== y) return x !== x
    if (x === 0 && y === 0) return 1 / x === 1 / y
    return x === y
  }

  const asserts = {
    assert_true: (v, d) => assert(v === true, 'assert_true', d, 'expected true got ${v}', { v }),
    assert_false: (v, d) => assert(v === false, 'assert_false', d, 'expected false got ${v}', { v }),
    assert_equals(actual, expected, d) {
      if (typeof actual !== typeof expected) {
        assert(false, 'assert_equals', d, `expected (${typeof expected}) \${expected} but got (${typeof actual}) \${actual}`, { expected, actual })
      }
      assert(same_value(actual, expected), 'assert_equals', d, 'expected ${expected} but got ${actual}', { expected, actual })
    },
    assert_not_equals: (actual, expected, d) =>
      assert(!same_value(actual, expected), 'assert_not_equals', d, 'got disallowed value ${actual}', { actual }),
    assert_in_array: (actual, expected, d) =>
      assert(expected.indexOf(actual) !== -1, 'assert_in_array', d, 'value ${actual} not in array ${expected}', { actual, expected }),
    assert_array_equals(actual, expected, d) {
      assert(typeof actual === 'object' && actual !== null && 'length' in actual, 'assert_array_equals', d, 'value is ${actual}, expected array', { actual })
      assert(actual.length === expected.length, 'assert_array_equals', d, 'lengths differ, expected length ${e} got ${a}', { e: expected.length, a: actual.length })
      for (let i = 0; i < actual.length; i++) {
        assert(Object.prototype.hasOwnProperty.call(actual, i) === Object.prototype.hasOwnProperty.call(expected, i), 'assert_array_equals', d, 'property ${i} presence differs', { i })
        assert(same_value(expected[i], actual[i]), 'assert_array_equals', d, 'expected property ${i} to be ${e} but got ${a}', { i, e: expected[i], a: actual[i] })
      }
    },
    assert_approx_equals(actual, expected, epsilon, d) {
      assert(typeof actual === 'number', 'assert_approx_equals', d, 'expected a number but got a ${t}', { t: typeof actual })
      if (isFinite(actual) || isFinite(expected)) {
        assert(Math.abs(actual - expected) <= epsilon, 'assert_approx_equals', d, 'expected ${expected} +/- ${epsilon} but got ${actual}', { expected, epsilon, actual })
      } else asserts.assert_equals(actual, expected)
    },
    assert_less_than: (a, e, d) => compare(a, e, d, 'assert_less_than', a < e, 'less than'),
    assert_greater_than: (a, e, d) => compare(a, e, d, 'assert_greater_than', a > e, 'greater than'),
    assert_less_than_equal: (a, e, d) => compare(a, e, d, 'assert_less_than_equal', a <= e, 'less than or equal to'),
    assert_greater_than_equal: (a, e, d) => compare(a, e, d, 'assert_greater_than_equal', a >= e, 'greater than or equal to'),
    assert_between_exclusive: (a, lo, hi, d) => {
      assert(typeof a === 'number', 'assert_between_exclusive', d, 'expected a number but got a ${t}', { t: typeof a })
      assert(a > lo && a < hi, 'assert_between_exclusive', d, 'expected a number between ${lo} and ${hi} but got ${a}', { lo, hi, a })
    },
    assert_regexp_match: (actual, expected, d) =>
      assert(expected.test(actual), 'assert_regexp_match', d, 'expected ${expected} but got ${actual}', { expected, actual }),
    assert_class_string(object, cls, d) {
      const actual = {}.toString.call(object)
      assert(same_value(actual, `[object ${cls}]`), 'assert_class_string', d, 'expected ${e} but got ${a}', { e: `[object ${cls}]`, a: actual })
    },
    assert_own_property: (o, p, d) =>
      assert(Object.prototype.hasOwnProperty.call(o, p), 'assert_own_property', d, 'expected property ${p} missing', { p }),
    assert_not_own_property: (o, p, d) =>
      assert(!Object.prototype.hasOwnProperty.call(o, p), 'assert_not_own_property', d, 'unexpected property ${p} is found on object', { p }),
    assert_inherits(o, p, d) {
      assert(typeof o === 'object' || typeof o === 'function', 'assert_inherits', d, 'provided value is not an object')
      assert('hasOwnProperty' in o, 'assert_inherits', d, 'provided value is an object but has no hasOwnProperty method')
      assert(!o.hasOwnProperty(p), 'assert_inherits', d, 'property ${p} found on object expected in prototype chain', { p })
      assert(p in o, 'assert_inherits', d, 'property ${p} not found in prototype chain', { p })
    },
    assert_readonly(o, p, d) {
      const initial = o[p]
      try {
        o[p] = `${initial}a`
        assert(same_value(o[p], initial), 'assert_readonly', d, 'changing property ${p} succeeded', { p })
      } finally {
        o[p] = initial
      }
    },
    assert_unreached: (d) => assert(false, 'assert_unreached', d, 'Reached unreachable code'),
    assert_throws_js: (ctor, fn, d) => throwsJs(ctor, fn, d, 'assert_throws_js'),
    assert_throws_dom(type, a, b, c) {
      if (typeof a === 'function' && a.name === 'DOMException') return throwsDom(type, b, c, 'assert_throws_dom', a)
      return throwsDom(type, a, b, 'assert_throws_dom', G.DOMException)
    },
    assert_throws_exactly: (exception, fn, d) => throwsExactly(exception, fn, d, 'assert_throws_exactly'),
    assert_throws_quotaexceedederror(a, b, c, d) {
      return throwsQuota(a, b, c, d, 'assert_throws_quotaexceedederror')
    },
    assert_implements(condition, d) {
      if (!condition) throw new OptionalFeatureUnsupportedError(d)
    },
    assert_implements_optional(condition, d) {
      if (!condition) throw new OptionalFeatureUnsupportedError(d)
    },
  }
  function compare(actual, expected, d, name, ok, words) {
    assert(typeof actual === 'number' || typeof actual === 'bigint', name, d, 'expected a number but got a ${t}', { t: typeof actual })
    assert(typeof actual === typeof expected, name, d, 'expected a ${e} but got a ${a}', { e: typeof expected, a: typeof actual })
    assert(ok, name, d, `expected a number ${words} \${expected} but got \${actual}`, { expected, actual })
  }
  function threw(fn, d, name) {
    try {
      fn.call(this)
    } catch (e) {
      if (e instanceof AssertionError) throw e
      return { e }
    }
    assert(false, name, d, '${fn} did not throw', { fn })
  }
  function throwsJs(ctor, fn, d, name) {
    const { e } = threw(fn, d, name)
    assert(typeof e === 'object', name, d, 'threw ${e} with type ${t}, not an object', { e, t: typeof e })
    assert(e !== null, name, d, 'threw null, not an object')
    assert(typeof ctor === 'function', name, d, '${c} is not a constructor', { c: ctor })
    let obj = ctor
    while (obj) {
      if (typeof obj === 'function' && obj.name === 'Error') break
      obj = Object.getPrototypeOf(obj)
    }
    assert(obj != null, name, d, '${c} is not an Error subtype', { c: ctor })
    assert(e.constructor === ctor && e.name === ctor.name, name, d, 'threw ${a} (${an}) expected instance of ${x} (${xn})', { a: e, an: e.name, x: ctor, xn: ctor.name })
  }
  const NAME_CODE = {
    IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
    NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InUseAttributeError: 10,
    InvalidStateError: 11, SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14,
    InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20,
    URLMismatchError: 21, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
    EncodingError: 0, NotReadableError: 0, UnknownError: 0, ConstraintError: 0, DataError: 0,
    TransactionInactiveError: 0, ReadOnlyError: 0, VersionError: 0, OperationError: 0, NotAllowedError: 0, OptOutError: 0,
  } // prettier-ignore
  const CODE_NAME = {}
  for (const k in NAME_CODE) if (NAME_CODE[k] > 0) CODE_NAME[NAME_CODE[k]] = k
  const LEGACY = {
    INDEX_SIZE_ERR: 1, HIERARCHY_REQUEST_ERR: 3, WRONG_DOCUMENT_ERR: 4, INVALID_CHARACTER_ERR: 5,
    NO_MODIFICATION_ALLOWED_ERR: 7, NOT_FOUND_ERR: 8, NOT_SUPPORTED_ERR: 9, INUSE_ATTRIBUTE_ERR: 10,
    INVALID_STATE_ERR: 11, SYNTAX_ERR: 12, INVALID_MODIFICATION_ERR: 13, NAMESPACE_ERR: 14,
    INVALID_ACCESS_ERR: 15, TYPE_MISMATCH_ERR: 17, SECURITY_ERR: 18, NETWORK_ERR: 19, ABORT_ERR: 20,
    URL_MISMATCH_ERR: 21, TIMEOUT_ERR: 23, INVALID_NODE_TYPE_ERR: 24, DATA_CLONE_ERR: 25,
  } // prettier-ignore
  function throwsDom(type, fn, d, name, ctor) {
    const { e } = threw(fn, d, name)
    assert(typeof e === 'object', name, d, 'threw ${e} with type ${t}, not an object', { e, t: typeof e })
    assert(e !== null, name, d, 'threw null, not an object')
    const required = {}
    let expectedName
    if (typeof type === 'number') {
      if (!(type in CODE_NAME)) throw new AssertionError(`Test bug: unrecognized DOMException code "${type}"`)
      expectedName = CODE_NAME[type]
      required.code = type
    } else {
      expectedName = type in LEGACY ? CODE_NAME[LEGACY[type]] : type
      if (!(expectedName in NAME_CODE)) throw new AssertionError(`Test bug: unrecognized DOMException name "${type}"`)
      required.code = NAME_CODE[expectedName]
    }
    if (required.code === 0 || ('name' in e && e.name !== e.name.toUpperCase() && e.name !== 'DOMException')) {
      required.name = expectedName
    }
    for (const prop in required) {
      assert(prop in e && e[prop] == required[prop], name, d, `threw \${e} that is not a DOMException ${type}: property \${p} is equal to \${a}, expected \${x}`, { e, p: prop, a: e[prop], x: required[prop] })
    }
    assert(e.constructor === ctor, name, d, 'threw an exception from the wrong global')
  }
  function throwsExactly(exception, fn, d, name) {
    const { e } = threw(fn, d, name)
    assert(same_value(e, exception), name, d, 'threw ${e} but we expected it to throw ${x}', { e, x: exception })
  }
  function throwsQuota(fn, requested, quota, d, name) {
    const { e } = threw(fn, d, name)
    assert(typeof e === 'object' && e !== null, name, d, 'threw ${e}, not an object', { e })
    const required = { code: 22, name: 'QuotaExceededError' }
    if (typeof requested !== 'function') required.requested = requested
    if (typeof quota !== 'function') required.quota = quota
    for (const [p, x] of Object.entries(required)) {
      assert(p in e && e[p] == x, name, d, 'threw ${e} that is not a correct QuotaExceededError: property ${p} is equal to ${a}, expected ${x}', { e, p, a: e[p], x })
    }
    if (typeof requested === 'function') assert(requested(e.requested), name, d, 'requested predicate failed')
    if (typeof quota === 'function') assert(quota(e.quota), name, d, 'quota predicate failed')
  }

  // ---- tests ---------------------------------------------------------------------------

  const all = []
  let complete = false
  let loaded = false
  let explicitDone = false
  let doneCalled = false
  let unnamed = 0
  let singleTest = null
  let promiseChain = Promise.resolve()
  let finish
  const finished = new Promise((resolve) => (finish = resolve))
  const completionCallbacks = []

  function defaultName() {
    const suffix = unnamed > 0 ? ` ${unnamed}` : ''
    unnamed++
    return `Untitled${suffix}`
  }

  class Test {
    constructor(name) {
      this.name = name
      this.status = null
      this.message = null
      this.phase = 'started'
      this.cleanups = []
      this.timeouts = []
      all.push(this)
    }
    step(fn, self, ...args) {
      if (this.phase === 'done') return undefined
      if (arguments.length === 1) self = this
      try {
        return fn.apply(self, args)
      } catch (e) {
        if (this.phase !== 'done') {
          const status = e instanceof OptionalFeatureUnsupportedError ? PRECONDITION_FAILED : FAIL
          this.finishWith(status, messageOf(e))
        }
        return undefined
      }
    }
    step_func(fn, self) {
      const t = this
      const own = arguments.length === 1
      return function (...args) {
        return t.step(fn, own ? this : self, ...args)
      }
    }
    step_func_done(fn, self) {
      const t = this
      const own = arguments.length === 1
      return function (...args) {
        let r
        if (fn) r = t.step(fn, own ? this : self, ...args)
        t.done()
        return r
      }
    }
    unreached_func(d) {
      return this.step_func(() => asserts.assert_unreached(d))
    }
    step_timeout(fn, ms, ...args) {
      const t = this
      const id = setTimeout(() => t.step(fn, t, ...args), ms)
      this.timeouts.push(id)
      return id
    }
    step_wait(cond, d, timeout = 3000, interval = 100) {
      return new Promise((resolve, reject) => {
        const start = performance.now()
        const poll = () => {
          if (this.phase === 'done') return
          let ok
          try {
            ok = cond()
          } catch (e) {
            return reject(e)
          }
          if (ok) return resolve()
          if (performance.now() - start > timeout) return reject(new AssertionError(d ?? 'step_wait timed out'))
          setTimeout(poll, interval)
        }
        poll()
      })
    }
    step_wait_func(cond, fn, d, timeout, interval) {
      this.step_wait(cond, d, timeout, interval).then(
        () => this.step(fn),
        (e) => this.step(() => {
          throw e
        }),
      )
    }
    step_wait_func_done(cond, fn, d, timeout, interval) {
      this.step_wait(cond, d, timeout, interval).then(
        () => {
          if (fn) this.step(fn)
          this.done()
        },
        (e) => this.step(() => {
          throw e
        }),
      )
    }
    add_cleanup(fn) {
      this.cleanups.push(fn)
    }
    done() {
      if (this.phase === 'done') return
      this.finishWith(PASS, null)
    }
    force_timeout() {
      this.finishWith(TIMEOUT, 'Test timed out')
    }
    finishWith(status, message) {
      if (this.phase === 'done') return
      this.phase = 'done'
      this.status = status
      this.message = message
      for (const id of this.timeouts) clearTimeout(id)
      const cleanups = this.cleanups.splice(0)
      for (const c of cleanups) {
        try {
          const r = c()
          if (r && typeof r.then === 'function') r.then(undefined, () => {})
        } catch {}
      }
      if (!complete) log(`\u0001WPT${JSON.stringify([status, String(this.name), message === null ? '' : truncate(String(message), 300)])}`)
      maybeComplete()
    }
  }

  function messageOf(e) {
    try {
      if (e instanceof Error) return `${e.name}: ${e.message}`
      return String(e)
    } catch {
      return 'an error that could not be stringified'
    }
  }

  function test(fn, name, _props) {
    if (complete) return undefined
    const t = new Test(name ?? defaultName())
    const r = t.step(fn, t, t)
    if (t.phase !== 'done') {
      if (r !== undefined) {
        t.finishWith(FAIL, `Test named '${t.name}' passed a function to \`test\` that returned a value.`)
      } else t.done()
    }
    return t
  }

  function async_test(fn, name, _props) {
    if (complete) return undefined
    if (typeof fn !== 'function') {
      name = fn
      fn = null
    }
    const t = new Test(name ?? defaultName())
    if (fn) t.step(fn, t, t)
    return t
  }

  function promise_test(fn, name, _props) {
    if (complete) return undefined
    const t = new Test(name ?? defaultName())
    t.phase = 'queued'
    promiseChain = promiseChain.then(
      () =>
        new Promise((resolve) => {
          if (t.phase === 'done') return resolve()
          t.phase = 'started'
          const p = t.step(fn, t, t)
          if (t.phase === 'done') return resolve()
          if (!p || typeof p.then !== 'function') {
            t.finishWith(FAIL, `promise_test: test body must return a 'thenable' object (received ${format_value(p)})`)
            return resolve()
          }
          p.then(
            () => {
              t.done()
              resolve()
            },
            (e) => {
              t.finishWith(e instanceof OptionalFeatureUnsupportedError ? PRECONDITION_FAILED : FAIL, messageOf(e))
              resolve()
            },
          )
        }),
    )
    return t
  }

  function promise_rejects_js(t, ctor, promise, d) {
    return Promise.resolve(promise)
      .then(t.unreached_func(`Should have rejected: ${d}`))
      .catch((e) =>
        throwsJs(ctor, () => {
          throw e
        }, d, 'promise_rejects_js'),
      )
  }
  function promise_rejects_dom(t, type, a, b, c) {
    let ctor = G.DOMException
    let promise = a
    let d = b
    if (typeof a === 'function' && a.name === 'DOMException') {
      ctor = a
      promise = b
      d = c
    }
    return Promise.resolve(promise)
      .then(t.unreached_func(`Should have rejected: ${d}`))
      .catch((e) =>
        throwsDom(type, () => {
          throw e
        }, d, 'promise_rejects_dom', ctor),
      )
  }
  function promise_rejects_exactly(t, exception, promise, d) {
    return Promise.resolve(promise)
      .then(t.unreached_func(`Should have rejected: ${d}`))
      .catch((e) =>
        throwsExactly(exception, () => {
          throw e
        }, d, 'promise_rejects_exactly'),
      )
  }

  function generate_tests(fn, args, props) {
    for (const [name, ...rest] of args) test(() => fn(...rest), name, props)
  }

  function setup(fnOrOptions, maybeOptions) {
    const options = typeof fnOrOptions === 'object' && fnOrOptions !== null ? fnOrOptions : (maybeOptions ?? {})
    if (options.explicit_done) explicitDone = true
    if (options.single_test && !singleTest) {
      // The file is one test, passed by done() (testharness.js's single_test mode).
      explicitDone = true
      singleTest = new Test(defaultName())
    }
    if (typeof fnOrOptions === 'function') {
      try {
        fnOrOptions()
      } catch (e) {
        log(`\u0001WPT-HARNESS${JSON.stringify(messageOf(e))}`)
        finishAll()
      }
    }
  }
  function promise_setup(fn, options) {
    setup(options ?? {})
    promiseChain = promiseChain.then(fn)
  }

  function done() {
    if (singleTest) singleTest.done()
    doneCalled = true
    maybeComplete()
  }

  function maybeComplete() {
    if (complete || !loaded) return
    if (explicitDone && !doneCalled) return
    if (all.every((t) => t.phase === 'done')) finishAll()
  }

  function finishAll() {
    if (complete) return
    for (const t of all) {
      if (t.phase === 'queued') t.finishWith(NOTRUN, null)
      else if (t.phase !== 'done') t.finishWith(TIMEOUT, 'Test timed out')
    }
    complete = true
    for (const cb of completionCallbacks) {
      try {
        cb(all, { status: 0 })
      } catch {}
    }
    finish()
  }

  const api = {
    ...asserts,
    test,
    async_test,
    promise_test,
    promise_rejects_js,
    promise_rejects_dom,
    promise_rejects_exactly,
    generate_tests,
    setup,
    promise_setup,
    done,
    format_value,
    step_timeout: (fn, ms, ...args) => setTimeout(fn, ms, ...args),
    add_completion_callback: (cb) => completionCallbacks.push(cb),
    add_result_callback: () => {},
    add_start_callback: () => {},
    AssertionError,
    OptionalFeatureUnsupportedError,
    GLOBAL: { isWindow: () => false, isWorker: () => true, isShadowRealm: () => false },
  }
  for (const k of Object.keys(api)) G[k] = api[k]

  /** Runs the scripts in order, then waits (at most `timeoutMs`) for every test to finish. */
  async function run(files, scripts, timeoutMs, { own = true, ended = null } = {}) {
    if (!('self' in G)) G.self = G
    G.location = { search: '', href: 'http://web-platform.test/', origin: 'http://web-platform.test' }
    // `fetch` of a resource the runner embedded (paths relative to the test file's folder).
    G.fetch = (path) => {
      const key = String(path)
      if (!(key in files)) return Promise.reject(new TypeError(`no resource ${key}`))
      const text = files[key]
      return Promise.resolve({ ok: true, status: 200, text: async () => text, json: async () => JSON.parse(text) })
    }
    G.fetch_json = (path) => G.fetch(path).then((r) => r.json())
    // The structured-clone battery makes Blobs and Files at its top level; where there are
    // none, placeholders let the rest of it load (scripts/wpt.mjs does not count subtests of
    // Blob, File, MessagePort and other globals the runtime does not have).
    if (typeof G.Blob === 'undefined') {
      G.Blob = class Blob {
        constructor(parts = [], options = {}) {
          this.parts = parts
          this.type = options.type ?? ''
        }
      }
      G.File = class File extends G.Blob {}
    }
    // common/sab.js takes the SharedArrayBuffer constructor from a shared
    // WebAssembly.Memory (browsers gate `new SharedArrayBuffer` on cross-origin isolation).
    // Where there is no WebAssembly, the harness's Memory gives it the same constructor.
    if (typeof G.WebAssembly === 'undefined' && typeof SharedArrayBuffer === 'function') {
      G.WebAssembly = {
        Memory: class Memory {
          constructor({ initial = 0 } = {}) {
            this.buffer = new SharedArrayBuffer(initial * 65536)
          }
        },
      }
    }
    // Each script as a classic script: a throw ends that script only, and its top-level
    // declarations are the next scripts' too (eval code keeps `let`/`const` to itself, so
    // scripts/wpt.mjs declares them with `var`).
    for (const [name, source] of scripts) {
      try {
        ;(0, eval)(source)
      } catch (e) {
        log(`\u0001WPT-HARNESS${JSON.stringify(`${name}: ${messageOf(e)}`)}`)
        if (singleTest) singleTest.finishWith(FAIL, messageOf(e))
      }
    }
    // Scripts are loaded: the harness may complete once every test has (testharness's
    // shell environment marks "all loaded" one microtask later).
    if (!own) {
      // WPT's testharness.js ran the tests and reports through its callbacks.
      let timer
      await Promise.race([ended, new Promise((r) => (timer = setTimeout(r, timeoutMs)))])
      clearTimeout(timer)
      log('\u0001WPT-END')
      return
    }
    await Promise.resolve()
    loaded = true
    maybeComplete()
    const timer = setTimeout(finishAll, timeoutMs)
    await finished
    clearTimeout(timer)
    log('\u0001WPT-END')
  }
  return { run }
})()
