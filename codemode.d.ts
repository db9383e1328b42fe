/**
 * `code-runtime-quickjs/codemode`: an executor for
 * [`@cloudflare/codemode`](https://www.npmjs.com/package/@cloudflare/codemode) (Code Mode) that
 * runs the model's code in a fresh QuickJS sandbox of a {@link CodeRuntime}, in Node.js.
 *
 * The types below are structurally compatible with the package's own (`Executor`,
 * `ExecuteResult`, `ResolvedProvider`, `ExecuteOptions`, as of 0.5.6), so a
 * {@link QuickJSExecutor} can be passed wherever the package expects an `Executor`, without
 * this module importing the package.
 *
 * @packageDocumentation
 */

import type { CodeRuntime, CodeRuntimeConfig } from './index'

/** A host function the sandbox can call as `namespace.name(...args)`. */
export type ToolFunction = (...args: unknown[]) => Promise<unknown>

/** What an execution produced. Same shape as `ExecuteResult` of `@cloudflare/codemode`. */
export interface ExecuteResult {
  /**
   * The value the code's function resolved to, as JSON would carry it (a `Date` becomes its
   * ISO string, `undefined` members are dropped; byte arrays survive as `Uint8Array`s).
   * `undefined` when the code failed.
   */
  result: unknown
  /** Why the execution failed: the thrown error's `message` (or `String(thrown)`), a timeout, … */
  error?: string
  /** One entry per `console` call, rendered as Node's console would; `warn`/`error` lines start with `[warn] `/`[error] `. */
  logs?: string[]
}

/** One namespace of tools. Same shape as `ResolvedProvider` of `@cloudflare/codemode`. */
export interface ResolvedProvider {
  /** The namespace's name in the sandbox, e.g. `codemode` → `codemode.search(…)`. A JavaScript identifier. */
  name: string
  /**
   * Tool name → host function. Names are sanitized as the package does (`get-weather` →
   * `get_weather`); each call receives the sandbox's arguments as JSON copies, spread.
   */
  fns: Record<string, ToolFunction>
  /**
   * JavaScript run in the sandbox after the namespaces exist and before the code, with every
   * namespace in scope; own properties it assigns to a namespace (e.g. `codemode.step = …`)
   * take precedence over the tools.
   */
  prelude?: string
  /**
   * From `@cloudflare/codemode` 0.3/0.4. `true` or absent: every call receives the sandbox's
   * argument list spread (`state.readFile("/a")` → `fn("/a")`), as 0.5 always does. `false`: the
   * single-object convention of 0.3, `fn(firstArgument ?? {})`.
   */
  positionalArgs?: boolean
}

/** Per-call options of `Executor.execute`. Same shape as `ExecuteOptions` of `@cloudflare/codemode`. */
export interface ExecuteOptions {
  /**
   * Workers RPC connector bindings. Not supported by {@link QuickJSExecutor}: a non-empty list
   * resolves with an `error`.
   */
  connectors?: Array<{ name: string; binding: { callTool(method: string, args: unknown): Promise<unknown> } }>
}

/** Runs code in a sandbox. Same shape as `Executor` of `@cloudflare/codemode`. */
export interface Executor {
  execute(code: string, providersOrFns: ResolvedProvider[] | Record<string, ToolFunction>, options?: ExecuteOptions): Promise<ExecuteResult>
}

/** Options of {@link QuickJSExecutor}. Unknown keys throw a `TypeError`. */
export interface QuickJSExecutorOptions {
  /**
   * A {@link CodeRuntime} to run on (shared; the executor never disposes it), or the config of
   * a runtime the executor creates, owns and disposes. Default: a runtime with default config.
   * The compute budget (`computeMs`), heap (`maxHeapMb`) and output cap (`maxOutputBytes`) of
   * each execution are the runtime's.
   */
  runtime?: CodeRuntime | CodeRuntimeConfig
  /**
   * Wall-clock limit of one execution, in milliseconds, counted from `execute()`: past it the
   * execution stops and resolves with `error: "Execution timed out after <timeoutMs>ms"`.
   * Positive, at most 2147483647. Default 60000 (as `DynamicWorkerExecutor`).
   */
  timeoutMs?: number
}

/**
 * An `Executor` for `@cloudflare/codemode` on top of {@link CodeRuntime}: each `execute()`
 * runs the code (an async arrow function's source, as `createCodeTool` passes it) in a fresh
 * QuickJS sandbox where every provider is a global namespace of its tools. Tool calls run on
 * the Node main thread, any number in flight at once (`Promise.all` runs them concurrently).
 * TypeScript in the code is accepted (types are stripped, not checked).
 *
 * @example
 * ```ts
 * import { QuickJSExecutor } from 'code-runtime-quickjs/codemode'
 * import { createCodeTool } from '@cloudflare/codemode/ai'
 *
 * const executor = new QuickJSExecutor({ runtime: { computeMs: 5000 }, timeoutMs: 30_000 })
 * const codemode = createCodeTool({ tools: myAiSdkTools, executor })
 * // … hand `codemode` to the model; later:
 * await executor.dispose()
 * ```
 */
export declare class QuickJSExecutor implements Executor {
  /** @throws TypeError | RangeError for options that are not valid (the runtime config's errors name its field). */
  constructor(options?: QuickJSExecutorOptions)
  /** The runtime executions run on (the executor's own, or the one it was given). */
  readonly runtime: CodeRuntime
  /**
   * Runs `code` with each provider as a namespace global (a plain record of functions is the
   * `codemode` namespace). The code is first normalized as the package's executors do
   * (`normalizeCode`: fences cut, a bare expression or statements made an async arrow that
   * returns the last expression, `export default`, a function declaration), deciding on
   * TypeScript as on its JavaScript; code that the package's `createCodeTool` already wrapped in
   * a block only because it held types is unwrapped first. Provider names the package reserves
   * (`Promise`, `setTimeout`, `Error`, `console`, `__dispatchers`, its codec names, …) are
   * refused with its message. Never rejects: failures resolve as `{ result: undefined, error, logs? }`
   * — a throw (its `message`), a syntax error, a timeout (`Execution timed out …`), `dispose()`
   * (`Execution aborted: executor disposed`), an invalid or duplicate provider name, connectors.
   */
  execute(code: string, providersOrFns: ResolvedProvider[] | Record<string, ToolFunction>, options?: ExecuteOptions): Promise<ExecuteResult>
  /**
   * Ends in-flight executions (they resolve with `Execution aborted: executor disposed`), waits
   * for them to stop and, when the executor created its runtime, disposes it (a runtime passed
   * in stays usable). Later `execute()` calls resolve with an error. Idempotent.
   */
  dispose(): Promise<void>
  /** Same as {@link QuickJSExecutor.dispose}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>
}
