/**
 * code-runtime-quickjs: run model-written TypeScript programs against an agent's async
 * tools, each in a fresh QuickJS sandbox on a Rust thread pool.
 *
 * @packageDocumentation
 */

declare global {
  interface SymbolConstructor {
    /**
     * `Symbol.asyncDispose` (ES2024 explicit resource management, `lib: esnext.disposable`),
     * declared here as `@types/node` declares it, so these typings compile under `lib: es2022`.
     */
    readonly asyncDispose: unique symbol
  }
}

/**
 * What the runtime uses of an `AbortSignal` (Node's, the DOM's or any other): structural, so
 * these typings need neither `@types/node` nor `lib: dom`.
 */
export interface CodeAbortSignal {
  readonly aborted: boolean
  readonly reason?: unknown
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any listener shape of any AbortSignal
  addEventListener(type: 'abort', listener: (event: any) => void, options?: { once?: boolean }): void
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  removeEventListener(type: 'abort', listener: (event: any) => void): void
}

/** A value that survives `JSON.parse(JSON.stringify(v))` unchanged. */
export type CodeJsonValue = null | boolean | number | string | CodeJsonValue[] | { [key: string]: CodeJsonValue }

/**
 * A host function the program can call as `global.name(args)`. It receives a detached copy
 * of the program's one argument and must resolve to lossless JSON.
 *
 * What it returns is adopted as `await` would: a plain promise is watched directly; a
 * thenable (or a promise with its own `then` or `constructor`, or of a subclass) has its
 * `then` called once. A `then` that throws rejects the program's call with the thrown
 * value's message; only the first of several resolutions counts; a `then` that never calls
 * back leaves the call pending until the run ends at its budgets. Throwing synchronously
 * rejects the call the same way.
 *
 * An argument whose JSON is longer than one V8 string can hold (536,870,824 bytes) never
 * reaches the host: the program's call rejects with `binding arguments are too large to hand
 * to the host: their JSON is over 536870824 bytes`. Calls are handed over in batches split to
 * fit, however many the program makes at once.
 */
export type CodeBindingFunction = (args: unknown) => Promise<CodeJsonValue>

/** A global constructor injected for a namespace; rejected calls of the namespace throw instances of it. */
export interface CodeBindingErrorClass {
  /** The constructor's global name, e.g. `ToolCallError`. */
  name: string
  /** The instance property that carries the member name that failed, e.g. `toolName`. */
  memberNameProperty: string
}

/** One global object of async functions, e.g. `tools`. */
export interface CodeBindingNamespace {
  /** The global's name: an identifier, not reserved, unique within the request. */
  global: string
  /** Member name → host function. Member names are arbitrary strings. */
  functions: Record<string, CodeBindingFunction>
  /** When set, rejections of this namespace's calls are instances of this class. */
  errorClass?: CodeBindingErrorClass
}

/**
 * One program to run. Every field of the request, of each namespace, of its `functions` and
 * of its `errorClass` is read exactly once (getters and Proxy traps included), and only that
 * copy is checked and used: a getter that answers differently on a second read has no say.
 * A getter or trap that throws rejects `run()` with a `TypeError` naming the field
 * (`CodeRuntime.run() request.bindings[0].global could not be read: Error: …`), before any
 * program starts.
 */
export interface CodeRunRequest {
  /**
   * TypeScript, run as the body of a strict async function (top-level `await` and `return` work).
   * Besides the ECMAScript built-ins and its bindings, the program sees `console`,
   * `setTimeout`/`setInterval` and their `clear…`, `queueMicrotask`, `structuredClone` (with
   * `transfer`), `URL`/`URLSearchParams`, `TextEncoder`/`TextDecoder` (every WHATWG encoding),
   * `atob`/`btoa`, `performance` (`now()`, `timeOrigin`; an `EventTarget`, of class `Performance`),
   * `crypto.randomUUID()`/`getRandomValues()`/`subtle.digest()`,
   * `Event`/`EventTarget`/`CustomEvent`, `AbortController`/`AbortSignal`, `Blob`/`File` (no `stream()`) and
   * `MessageChannel`/`MessagePort`/`MessageEvent` (within the run), as Node's; no
   * `require`, `import`, `process`, `fetch`, file system or network.
   *
   * `Intl` is ECMA-402 on ICU4X with CLDR data compiled in: `getCanonicalLocales`,
   * `supportedValuesOf`, `Locale`, `NumberFormat` (decimal, percent, currency, compact,
   * scientific and engineering notation, every rounding option, `formatToParts`,
   * `formatRange`), `PluralRules` and `Collator`; `Number`/`BigInt`/`Array.prototype.toLocaleString`,
   * `String.prototype.localeCompare`, `toLocaleUpperCase` and `toLocaleLowerCase` answer through
   * it. It is loaded on a program's first use. The default locale is `en-US`, whatever the
   * host's; CLDR's version can make a few answers differ from a given Node's ICU.
   */
  program: string
  /** The namespaces the program may call. */
  bindings: CodeBindingNamespace[]
  /**
   * Aborting ends the run at once with `{ kind: 'abort', message: String(signal.reason) }`.
   * If reading `reason` or converting it to a string throws, the message is `the run was
   * aborted (its abort reason could not be converted to a string)`.
   *
   * `aborted` is read once, when the run is about to start (`true`: the run ends as `abort`
   * without running). The abort listener is added before the program starts and removed when
   * the run ends. If `aborted` or `addEventListener` throws, `run()` rejects with a
   * `TypeError` naming it and no program ever runs; if `removeEventListener` throws, the run
   * has ended and `run()` rejects with a `TypeError` naming it. A listener called from
   * `addEventListener` itself ends the run as `abort` before it starts.
   */
  signal?: CodeAbortSignal
  /**
   * Live logs: called on the Node main thread with each log entry as the program emits it,
   * in order and before `run()` settles (entries are batched per event-loop turn). Every entry
   * still appears in `result.logs`. Entries past `maxOutputBytes` are not delivered. If it
   * throws, or returns a promise that rejects, a process warning (`CODE_RUNTIME_ONLOG_THREW`)
   * is emitted once for the run and the run carries on. Anything else it returns is ignored
   * (a thenable's `then` is not called).
   *
   * @example
   * await runtime.run({ program, bindings, onLog: (line) => process.stdout.write(line + '\n') })
   */
  onLog?: (text: string) => void
}

/** Why a run failed. */
export interface CodeRunFailure {
  /**
   * - `exception`: the program threw, or did not parse.
   * - `timeout`: the compute budget or the wall-clock ceiling ran out.
   * - `abort`: the signal fired, or the runtime was disposed.
   * - `worker-exit`: the run's engine died (heap limit reached), or its result or a batch of
   *   its live logs was longer than one V8 string can hold (~512 MiB, possible only with a
   *   larger `maxOutputBytes`).
   * - `invalid-output`: the completion was not lossless JSON.
   * - `output-limit`: logs plus completion exceeded `maxOutputBytes`.
   */
  kind: 'exception' | 'timeout' | 'abort' | 'worker-exit' | 'invalid-output' | 'output-limit'
  message: string
}

/** Exactly `{ logs }`, `{ logs, value }` or `{ logs, error }`. */
export interface CodeRunResult {
  /** The program's `return` value; absent when it returned `undefined` or failed. */
  value?: CodeJsonValue
  /** One entry per `console` call, in order, rendered as Node's console would. */
  logs: string[]
  error?: CodeRunFailure
}

/**
 * Limits and sizing. Unknown keys throw a `TypeError`; bad values a `TypeError`/`RangeError`
 * naming the field. Each key is read once; a getter or Proxy trap that throws is a
 * `TypeError` naming it.
 */
export interface CodeRuntimeConfig {
  /**
   * CPU time, in milliseconds, one run's JavaScript may execute. Waiting on a binding or a
   * timer costs nothing. Positive, finite. Default 60000.
   */
  computeMs?: number
  /** Wall-clock ceiling of one run from the call to `run()`, in milliseconds. Positive, at most 2147483647. Default 600000. */
  maxWallMs?: number
  /** Cap on `JSON.stringify(logs)` plus the completion or error message, in UTF-8 bytes. Safe integer ≥ 4. Default 67108864 (64 MiB). */
  maxOutputBytes?: number
  /** One run's JavaScript heap limit, in MiB. Reaching it ends the run as `worker-exit`. Positive. Default 512. */
  maxHeapMb?: number
  /**
   * Largest program accepted, in UTF-8 bytes. The TypeScript transform runs before the
   * program's first poll and cannot be interrupted, so a larger program fails at once as
   * `exception` (`program is … bytes of UTF-8, over the maxProgramBytes limit of …`),
   * without being transformed. Positive safe integer. Default 1048576 (1 MiB).
   */
  maxProgramBytes?: number
  /** Threads kept ready to execute programs; more start while programs spin. Positive integer. Default: the number of CPUs. */
  threads?: number
  /**
   * The IANA time zone every run sees: `Date`'s local time (`getHours()`, `toString()`,
   * `getTimezoneOffset()`, `new Date(y, m, d)`, local forms of `Date.parse`), daylight saving
   * transitions included, and `Intl`'s default zone. Any ASCII case (`'europe/berlin'`); UTC's
   * aliases (`'Etc/UTC'`, `'GMT'`) are `'UTC'`. The zones come from the IANA database compiled
   * into the addon: the host's `TZ` and zone files are never read. Default: `'UTC'`.
   */
  timeZone?: string
}

/**
 * Runs programs. One instance serves any number of concurrent runs; each run gets a fresh
 * JavaScript world. Its methods (and those of {@link CodeSession}) also work called through a
 * `Proxy` of the instance, as cordis hands services out; any other `this` is a `TypeError`.
 *
 * @example
 * ```ts
 * const runtime = new CodeRuntime({ computeMs: 5000 })
 * const result = await runtime.run({ program: 'return 1 + 1', bindings: [] })
 * // { logs: [], value: 2 }
 * await runtime.dispose()
 * ```
 */
export declare class CodeRuntime {
  /** @throws TypeError | RangeError for a config that is not valid, naming the field. */
  constructor(config?: CodeRuntimeConfig)
  /** Always `'typescript'`. */
  readonly language: 'typescript'
  /** Always `'quickjs'`. */
  readonly isolation: 'quickjs'
  /**
   * Runs one program. Resolves for every program outcome (failures are in `error`); rejects
   * only for misuse: after `dispose()`, a malformed request, or a request whose getters,
   * traps or signal methods throw (see {@link CodeRunRequest}). A run whose `run()` rejects
   * either never started or has already ended: no program is left running.
   */
  run(request: CodeRunRequest): Promise<CodeRunResult>
  /**
   * Opens a persistent session (a notebook-style kernel): its runs execute one at a time in
   * the same JavaScript world. Top-level `const`/`let`/`var`/`function`/`class` declarations
   * and every other global persist to the next run; redeclaring a name replaces it.
   * `options` override the runtime's budgets for this session's runs; `maxHeapMb` limits
   * the session's heap as a whole.
   *
   * @throws TypeError | RangeError for options that are not valid; Error after `dispose()`.
   * @example
   * await using session = runtime.openSession()
   * await session.run({ program: 'const rows = await tools.query({ q })', bindings })
   * const { value } = await session.run({ program: 'return rows.length', bindings })
   */
  openSession(options?: CodeSessionOptions): CodeSession
  /**
   * A plain JSON snapshot of counters since the runtime was created; cheap enough to poll
   * every second (no allocation beyond the snapshot and a sort of at most 1,024 numbers).
   *
   * @example
   * setInterval(() => log.info('code runtime', runtime.metrics()), 1000).unref()
   */
  metrics(): CodeRuntimeMetrics
  /** Ends in-flight runs (`abort` / `runtime disposed`) and resolves once every thread is idle. Idempotent. */
  dispose(): Promise<void>
  /** Same as {@link CodeRuntime.dispose}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>
}

/** Budgets for one session's runs; each defaults to the runtime's. */
export type CodeSessionOptions = Pick<CodeRuntimeConfig, 'computeMs' | 'maxWallMs' | 'maxOutputBytes' | 'maxHeapMb'>

/**
 * A persistent JavaScript world made by {@link CodeRuntime.openSession}. Never shares state
 * with other sessions or with `CodeRuntime.run()`.
 */
export declare class CodeSession {
  private constructor()
  /**
   * Runs one program in the session's world, after every run asked for earlier has settled.
   * Budgets (`computeMs`, `maxWallMs`, `maxOutputBytes`) and `logs` are per run. A run
   * stopped by a timeout or an abort leaves the session usable with whatever the program had
   * already done; a run that exhausts the heap kills the session, and every later run
   * resolves at once with `worker-exit` saying why. Bindings belong to their run: a binding
   * function kept in a global from an earlier run throws a `TypeError` when called.
   * Work an earlier run left queued (promise reactions) runs at the start of the next.
   * Rejects only for misuse: after `dispose()`, a malformed request, or a request whose
   * getters, traps or signal methods throw; the session carries on with its next run.
   */
  run(request: CodeRunRequest): Promise<CodeRunResult>
  /**
   * Ends the session: the run in progress and queued runs end as `abort` with
   * `session disposed`; resolves once they have. Idempotent. `CodeRuntime.dispose()`
   * disposes its sessions (their runs end with `runtime disposed`).
   */
  dispose(): Promise<void>
  /** Same as {@link CodeSession.dispose}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>
}

/** What {@link CodeRuntime.metrics} returns. */
export interface CodeRuntimeMetrics {
  runs: {
    /** `run()` calls accepted (including those ended at once by an aborted signal). */
    started: number
    /** Runs not settled yet. */
    inFlight: number
    /** Settled runs by outcome: `ok` for `{ logs }`/`{ logs, value }`, else `error.kind`. */
    settled: Record<'ok' | CodeRunFailure['kind'], number>
  }
  sessions: {
    /** Sessions opened and not disposed. */
    open: number
  }
  threads: {
    /** Pool threads alive. */
    total: number
    /** Threads waiting for work. */
    ready: number
    /** Threads running a slice of a program. */
    busy: number
    /** Slices waiting for a thread. */
    queuedSlices: number
  }
  /** Binding calls the programs made. */
  hostCalls: number
  /** CPU time spent running programs (finished slices of every run so far), in ms. */
  cpuMs: number
  /** Wall time from `run()` to its result over the last `window` (at most 1,024) runs; `null` before any. */
  latencyMs: { p50: number | null; p99: number | null; window: number }
}

/** Names a binding global may not take: `console`, `__dsh_main__`, `__builtins__`, `__name__`, `__debug__`. */
export declare const RESERVED_BINDING_GLOBALS: ReadonlySet<string>

/** Names `memberNameProperty` may not take: `name`, `message`, `stack`, `args`, `with_traceback`, `add_note`. */
export declare const RESERVED_ERROR_MEMBERS: ReadonlySet<string>

/** ECMAScript reserved words and strict-mode names plus Python keywords: not usable as globals. */
export declare const PORTABLE_RESERVED_WORDS: ReadonlySet<string>

/**
 * Config of the package as a cordis plugin: {@link CodeRuntimeConfig} plus the worker-thread
 * backend's name for the heap limit, so its `cordis.yml` config works unchanged.
 */
export interface CodeRuntimePluginConfig extends CodeRuntimeConfig {
  /** The worker-thread backend's heap limit, in MiB: the same as `maxHeapMb` (setting both to different values is refused). Default 512. */
  maxOldGenerationSizeMb?: number
}

/** What {@link Config} resolves a plugin config to: every budget of {@link CodeRuntimeConfig}. */
export type CodeRuntimeResolvedConfig = Required<CodeRuntimeConfig>

/** The plugin's name (cordis diagnostics and loggers). */
export declare const name: 'code-runtime-quickjs'

/** The service the plugin provides: `ctx.codeRuntime`, a {@link CodeRuntime}. */
export declare const provide: 'codeRuntime'

/**
 * The plugin's config schema: called as a function (cordis 3) it returns the resolved config
 * or throws a `TypeError`/`RangeError` naming the field; it is also a Standard Schema v1
 * (cordis 4 calls `Config['~standard'].validate`), whose issues carry the same messages.
 */
export declare const Config: ((config?: CodeRuntimePluginConfig | null) => CodeRuntimeResolvedConfig) & {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: 'code-runtime-quickjs'
    validate(value: unknown): { value: CodeRuntimeResolvedConfig; issues?: undefined } | { issues: ReadonlyArray<{ message: string }> }
  }
}

/**
 * Applies the plugin to a cordis context (cordis 3 or 4): starts a {@link CodeRuntime} with the
 * config, provides it as `codeRuntime`, and disposes it when the plugin unloads or reloads.
 * Takes the context structurally: this package depends on no cordis.
 */
export declare function apply(ctx: object, config?: CodeRuntimePluginConfig | null): void
