'use strict'
// `CodeRuntime`: runs over the native engine. It starts runs (and sessions' runs), keeps the
// Node process alive exactly while one is in flight (the native side only holds weak
// handles), adds and always removes AbortSignal listeners, dispatches the engine's events
// (settled runs, live logs, binding calls), answers calls in batches, and keeps the metrics.

const native = require('./loader.js')
const { types } = require('node:util')
const {
  MAX_WALL_MS,
  SESSION_KEYS,
  callerError,
  describeError,
  programTooLarge,
  read,
  validateConfig,
  validateRequest,
} = require('./validation.js')
const { BINDING_RESOLUTION_NOT_LOSSLESS, answerJson, checkedJson, eachAnswerJson, isLosslessAnswer } = require('./lossless.js')
const { CodeSession, SESSION_TOKEN, ABANDON, RUNTIME_DISPOSED, SESSION_GONE, asyncDispose } = require('./session.js')

const { NativeEngine, resultWithoutRunning } = native
const { parse: jsonParse } = JSON
const { apply: reflectApply } = Reflect
const { getPrototypeOf, hasOwn } = Object
const PromisePrototype = Promise.prototype
const { then: promiseThen } = PromisePrototype
const EVENT_SETTLED = 0
const EVENT_LOGS = 2
const EVENT_LOST = 3
/** Runs whose latency `metrics()` summarises. */
const LATENCY_WINDOW = 1024
const RESOLVED = Promise.resolve()
const POLL_AFTER_ANSWER_MS = 0.05
// After answering a run, how long the main thread waits (spinning) for the run's next call
// before leaving it to wake the event loop, and how long such a chain of direct hand-offs may
// keep the event loop from turning.
const WAIT_FOR_NEXT_CALL_MICROS = 30
const MAX_CHAIN_MS = 1
const UNPRINTABLE_REJECTION = 'binding rejected with a reason that cannot be converted to a string'

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

/** `String(signal.reason)`; a `reason` getter or a `toString` that throws gives a fixed message instead. */
function abortMessage(signal) {
  try {
    return String(signal.reason)
  } catch {
    return ABORT_REASON_UNPRINTABLE
  }
}
const ABORT_REASON_UNPRINTABLE = 'the run was aborted (its abort reason could not be converted to a string)'

/**
 * Calls `onValue` or `onReason` once with what a host function returned, when it settles.
 * A plain promise is watched directly (the common case, an async function's); anything
 * else (a promise with its own `then` or `constructor`, a subclass, a thenable, a value) is
 * adopted by a promise of ours, so a `then` that throws rejects the call, one that calls
 * back twice or calls back and throws counts once, and one that never calls back leaves the
 * call pending until the run ends at its budgets. Never throws.
 */
function whenSettled(result, onValue, onReason) {
  if (types.isPromise(result) && getPrototypeOf(result) === PromisePrototype && !hasOwn(result, 'then') && !hasOwn(result, 'constructor')) {
    try {
      reflectApply(promiseThen, result, [onValue, onReason])
      return
    } catch {
      // Promise.prototype.constructor replaced by something that throws: adopt it below.
    }
  }
  reflectApply(promiseThen, new Promise((adopt) => adopt(result)), [onValue, onReason])
}

/** Where a run reports what its signal's methods threw. */
const SIGNAL = 'CodeRuntime.run() request.signal'
/** Marks a run not started yet (its id is not known). */
const NOT_STARTED = -2

/**
 * Takes a run's abort listener off its signal. Returns the TypeError to reject run() with
 * when the signal's `removeEventListener` threw, else undefined.
 */
function unlisten(entry) {
  try {
    entry.signal.removeEventListener('abort', entry.onAbort)
    return undefined
  } catch (error) {
    return callerError(`${SIGNAL}.removeEventListener threw: ${describeError(error)}`)
  }
}

/** Reports, once per run, that its `onLog` threw or rejected. */
function onLogFailed(entry, how, error) {
  if (entry.onLogFailed) return
  entry.onLogFailed = true
  try {
    process.emitWarning(
      `CodeRuntime.run() request.onLog ${how}; later entries of this run are still delivered and kept in result.logs: ${describeError(error)}`,
      { code: 'CODE_RUNTIME_ONLOG_THREW' },
    )
  } catch {
    // A process.emitWarning replaced by one that throws: the warning is lost, the run goes on.
  }
}

/** Own property of every instance holding the instance itself: read through a Proxy, it leads back to the instance. */
const INSTANCE = Symbol('CodeRuntime instance')

class CodeRuntime {
  /**
   * The instance a public method was called on: `value` itself, or the instance behind a
   * Proxy of it (cordis hands services out wrapped in one, and calls methods with `this` the
   * Proxy), found through the INSTANCE property and checked by its private brand. A Proxy
   * that lies can only name another real instance. Throws a TypeError for anything else.
   */
  static #of(value, method) {
    let self
    try {
      self = value[INSTANCE]
    } catch {}
    if (typeof self === 'object' && self !== null && #config in self) return self
    throw new TypeError(`CodeRuntime.${method}() called on an object that is not a CodeRuntime`)
  }

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

  /** @param {import('../index').CodeRuntimeConfig} [config] */
  constructor(config) {
    this.#config = validateConfig(config)
    this.#engine = new NativeEngine(this.#config.threads, this.#config.timeZone, (events) => this.#dispatch(events))
    this.#engineId = this.#engine.id
    Object.defineProperty(this, INSTANCE, { value: this })
  }

  get language() {
    return 'typescript'
  }

  get isolation() {
    return 'quickjs'
  }

  run(request) {
    let self
    try {
      self = CodeRuntime.#of(this, 'run')
    } catch (error) {
      return Promise.reject(error)
    }
    return self.#run(request)
  }

  #run(request) {
    return new Promise((resolve, reject) => {
      if (this.#disposed) throw new Error('CodeRuntime.run() called after disposal')
      const validated = validateRequest(request)
      const config = this.#config
      this.#launch(validated, config, resolve, reject, (specs) =>
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
    return CodeRuntime.#of(this, 'openSession').#openSession(options)
  }

  #openSession(options) {
    if (this.#disposed) throw new Error('CodeRuntime.openSession() called after disposal')
    const config = validateConfig(options, 'CodeRuntime.openSession() options', SESSION_KEYS, this.#config)
    const sessionId = native.openSession(this.#engineId, config.computeMs, config.maxWallMs, config.maxOutputBytes, config.maxHeapMb)
    const launch = (validated, resolve, reject) =>
      this.#launch(validated, config, resolve, reject, (specs) =>
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
  #launch(validated, config, resolve, reject, start) {
    const { namespaces, signal, onLog } = validated
    // Read once per run; a getter that throws rejects run() before anything starts.
    const aborted = signal !== undefined && read(signal, 'aborted', `${SIGNAL}.aborted`)
    if (aborted) {
      this.#resolveWithoutRunning(resolve, 'abort', abortMessage(signal), config)
      return
    }
    // The transform cannot be interrupted: a program too large for it to finish quickly
    // within any budget is refused before it starts.
    const programBytes = validated.program.length > config.maxProgramBytes / 3 ? Buffer.byteLength(validated.program) : 0
    if (programBytes > config.maxProgramBytes) {
      this.#resolveWithoutRunning(resolve, 'exception', programTooLarge(programBytes, config.maxProgramBytes), config)
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
    const entry = {
      resolve,
      reject,
      signal,
      onAbort: null,
      abortedEarly: false,
      functions,
      onLog,
      onLogFailed: false,
      startedAt: 0,
    }
    let id = NOT_STARTED
    if (signal !== undefined) {
      // The listener goes on before the run starts: if adding it throws, nothing runs.
      entry.onAbort = () => {
        if (id === NOT_STARTED) {
          entry.abortedEarly = true
          return
        }
        try {
          native.abort(this.#engineId, id, abortMessage(signal))
        } catch (error) {
          this.#engineFailed(id, error)
        }
      }
      try {
        signal.addEventListener('abort', entry.onAbort, { once: true })
      } catch (error) {
        throw callerError(`${SIGNAL}.addEventListener threw: ${describeError(error)}`)
      }
      if (entry.abortedEarly) {
        // Its addEventListener called the listener at once.
        const failure = unlisten(entry)
        if (failure !== undefined) throw failure
        this.#resolveWithoutRunning(resolve, 'abort', abortMessage(signal), config)
        return
      }
    }
    entry.startedAt = performance.now()
    try {
      id = start(specs)
    } catch (error) {
      if (entry.onAbort !== null) unlisten(entry)
      throw error
    }
    this.#stats.started++
    if (id === -1) {
      const failure = entry.onAbort !== null ? unlisten(entry) : undefined
      if (failure !== undefined) throw failure
      const result = { logs: [], error: { kind: 'worker-exit', message: SESSION_GONE } }
      this.#count(result, 0)
      resolve(result)
      return
    }
    this.#runs.set(id, entry)
    if (this.#keepAlive === null) this.#keepAlive = setInterval(() => {}, MAX_WALL_MS)
  }

  /** A run that ends before its program starts (an aborted signal, a program too large). */
  #resolveWithoutRunning(resolve, kind, message, config) {
    const result = JSON.parse(resultWithoutRunning(kind, message, config.maxOutputBytes))
    this.#stats.started++
    this.#count(result, 0)
    resolve(result)
  }

  /**
   * Events from the engine, each the JSON text `[0, runId, result]` (the run settled),
   * `[1, runId, [[callId, functionIndex, …], [argument, …]]]` (the program called bindings),
   * `[2, runId, [entry, …]]` (live logs) or `[3, runId, kind, bytes]` (an event of that kind
   * was too long to become a string).
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
      try {
        if (event[0] === EVENT_SETTLED) this.#settled(event[1], event[2])
        else if (event[0] === EVENT_LOGS) this.#liveLogs(event[1], event[2])
        else if (event[0] === EVENT_LOST) this.#lostEvent(event[1], event[2], event[3])
        else this.#calls(event[1], event[2])
      } catch (error) {
        // Nothing above should throw (caller objects are called guarded); if something
        // does, that run ends and the other events are still dispatched.
        this.#engineFailed(event[1], error)
      }
    }
  }

  /**
   * An event of run `runId` was too long to become a JavaScript string (a result or a batch
   * of live logs over V8's longest string, ~512 MiB: only possible with a larger
   * `maxOutputBytes`): the run ends as `worker-exit`, and the engine is told to drop it.
   */
  #lostEvent(runId, kind, bytes) {
    if (!this.#runs.has(runId)) return
    try {
      native.abort(this.#engineId, runId, 'event lost')
    } catch {}
    const what = kind === EVENT_SETTLED ? 'its result' : kind === EVENT_LOGS ? 'its live logs' : 'its binding calls'
    this.#settled(runId, {
      logs: [],
      error: { kind: 'worker-exit', message: `the run was stopped: ${what} came to ${bytes} bytes of JSON, more than one Node string can hold` },
    })
  }

  /**
   * Hands live log entries to the run's `onLog`. What it returns is ignored, except that a
   * promise it returns is watched: an `onLog` that throws or whose promise rejects is
   * reported once per run, and the run carries on.
   */
  #liveLogs(runId, entries) {
    const entry = this.#runs.get(runId)
    if (!entry || entry.onLog === undefined) return
    for (let i = 0; i < entries.length; i++) {
      let returned
      try {
        returned = reflectApply(entry.onLog, undefined, [entries[i]])
      } catch (error) {
        onLogFailed(entry, 'threw', error)
        continue
      }
      if (types.isPromise(returned)) {
        try {
          reflectApply(promiseThen, returned, [undefined, (error) => onLogFailed(entry, 'rejected', error)])
        } catch (error) {
          onLogFailed(entry, 'returned a promise that cannot be watched', error)
        }
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
      whenSettled(result, onValue, onReason)
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
    let detail
    try {
      detail = error instanceof Error ? String(error.message) : String(error)
    } catch {
      detail = 'an unprintable error'
    }
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

  /** Run `id` ended: its listener comes off, and run() settles (rejects if removing the listener threw). */
  #settled(id, result) {
    const entry = this.#runs.get(id)
    if (!entry) return
    this.#runs.delete(id)
    const failure = entry.onAbort !== null ? unlisten(entry) : undefined
    if (this.#runs.size === 0 && this.#keepAlive !== null) {
      clearInterval(this.#keepAlive)
      this.#keepAlive = null
    }
    this.#count(result, performance.now() - entry.startedAt)
    if (failure === undefined) entry.resolve(result)
    else entry.reject(failure, result)
  }

  #count(result, latencyMs) {
    const stats = this.#stats
    const kind = result.error === undefined ? 'ok' : result.error.kind
    if (kind in stats.settled) stats.settled[kind]++
    stats.latencies[stats.latencyCount % LATENCY_WINDOW] = latencyMs
    stats.latencyCount++
  }

  metrics() {
    return CodeRuntime.#of(this, 'metrics').#metrics()
  }

  #metrics() {
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
    let self
    try {
      self = CodeRuntime.#of(this, 'dispose')
    } catch (error) {
      return Promise.reject(error)
    }
    return self.#dispose()
  }

  #dispose() {
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

module.exports = { CodeRuntime }
