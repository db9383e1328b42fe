// Compiled with `tsc --strict --noEmit --skipLibCheck` by types.spec.ts: QuickJSExecutor is an
// `Executor` of @cloudflare/codemode (0.5.6) and the subpath export carries its typings.
// (--skipLibCheck: the package's own .d.ts files need the Workers types, `cloudflare:workers`.)
import type { ExecuteResult as PackageExecuteResult, Executor as PackageExecutor, ResolvedProvider as PackageResolvedProvider } from '@cloudflare/codemode'
import { createCodeTool } from '@cloudflare/codemode/ai'
import { createBrowserCodeTool } from '@cloudflare/codemode/browser'
import { CodeRuntime } from 'code-runtime-quickjs'
import { QuickJSExecutor, type ExecuteResult, type Executor, type QuickJSExecutorOptions, type ResolvedProvider } from 'code-runtime-quickjs/codemode'

const options: QuickJSExecutorOptions = { runtime: { computeMs: 1000, maxHeapMb: 64 }, timeoutMs: 5000 }
const executor = new QuickJSExecutor(options)
const shared = new QuickJSExecutor({ runtime: new CodeRuntime(), timeoutMs: 1000 })

// Assignable both ways: ours to the package's, the package's to ours.
const asPackage: PackageExecutor = executor
const fromPackage: Executor = asPackage
const providerFromPackage: PackageResolvedProvider = { name: 'db', fns: { query: async (sql) => [sql] }, prelude: 'db.x = 1' }
const ourProvider: ResolvedProvider = providerFromPackage
const positional: ResolvedProvider = { name: 'state', fns: {}, positionalArgs: true }
const backToPackage: PackageResolvedProvider = positional

export async function main(): Promise<unknown> {
  const codeTool = createCodeTool({ tools: {}, executor })
  const browserTool = createBrowserCodeTool({ tools: {}, executor })
  const result: ExecuteResult = await executor.execute('async () => 1', [ourProvider], { connectors: [] })
  const asPackageResult: PackageExecuteResult = result
  const again: PackageExecuteResult = await shared.execute('async () => 1', { search: async (query: unknown) => [query] })
  const runtime: CodeRuntime = executor.runtime
  await executor.dispose()
  await shared[Symbol.asyncDispose]()
  return [codeTool, browserTool, asPackageResult.error, again.logs, runtime.language, fromPackage, backToPackage]
}

// @ts-expect-error not an option (it is timeoutMs)
new QuickJSExecutor({ timeout: 1000 })
// @ts-expect-error not a runtime config key
new QuickJSExecutor({ runtime: { computeMS: 1 } })
// @ts-expect-error execute() must resolve an ExecuteResult
const notAnExecutor: PackageExecutor = { execute: async () => 1 }
void notAnExecutor
