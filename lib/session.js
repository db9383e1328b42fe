'use strict'
// `CodeSession`: a persistent world whose runs queue one behind another. The session holds no
// engine handle; its runtime gives it `launch` and `close`, which own the native side.

const { describeError, isCallerError, validateRequest } = require('./validation.js')

const NOOP = () => {}
const RESOLVED = Promise.resolve()

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
/** Own property of every session holding the session itself (see CodeRuntime's INSTANCE). */
const INSTANCE = Symbol('CodeSession instance')

class CodeSession {
  /** The session a public method was called on, through a Proxy of it too; see CodeRuntime.#of. */
  static #of(value, method) {
    let self
    try {
      self = value[INSTANCE]
    } catch {}
    if (typeof self === 'object' && self !== null && #launch in self) return self
    throw new TypeError(`CodeSession.${method}() called on an object that is not a CodeSession`)
  }

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
    Object.defineProperty(this, INSTANCE, { value: this })
  }

  run(request) {
    let self
    try {
      self = CodeSession.#of(this, 'run')
    } catch (error) {
      return Promise.reject(error)
    }
    return self.#run(request)
  }

  #run(request) {
    return new Promise((resolve) => {
      if (this.#disposed) throw new Error('CodeSession.run() called after disposal')
      const validated = validateRequest(request)
      const turn = this.#tail.then(
        () =>
          new Promise((done, fail) => {
            if (this.#ended !== null) {
              done({ logs: [], error: { ...this.#ended } })
              return
            }
            const ended = (result) => {
              const kind = result.error?.kind
              // A run that exhausted the heap (or met an engine failure) killed the world.
              if (kind === 'worker-exit' && this.#ended === null) {
                this.#ended = { kind: 'worker-exit', message: `the session is dead: ${result.error.message}` }
              }
            }
            // A run that ended but whose signal's removeEventListener threw rejects, with its result.
            const rejected = (error, result) => {
              if (result !== undefined) ended(result)
              fail(error)
            }
            try {
              this.#launch(
                validated,
                (result) => {
                  ended(result)
                  done(result)
                },
                rejected,
              )
            } catch (error) {
              // The request's own objects (a signal whose methods throw) reject this run;
              // the session carries on with the next.
              if (isCallerError(error)) fail(error)
              else done({ logs: [], error: { kind: 'worker-exit', message: `the session could not start a run: ${describeError(error)}` } })
            }
          }),
      )
      this.#tail = turn.then(NOOP, NOOP)
      resolve(turn)
    })
  }

  /** Ends the session: a run in progress ends as `abort` (`session disposed`), queued ones too. */
  dispose() {
    let self
    try {
      self = CodeSession.#of(this, 'dispose')
    } catch (error) {
      return Promise.reject(error)
    }
    return self.#dispose()
  }

  #dispose() {
    if (this.#disposing === null) {
      this[ABANDON](SESSION_DISPOSED)
      this.#disposing = this.#tail.then(NOOP)
    }
    return this.#disposing
  }

  [ABANDON](reason) {
    CodeSession.#of(this, 'abandon').#abandon(reason)
  }

  #abandon(reason) {
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

module.exports = { CodeSession, SESSION_TOKEN, ABANDON, RUNTIME_DISPOSED, SESSION_GONE, asyncDispose }
