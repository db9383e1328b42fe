// Compiled with `tsc --strict --noEmit` by types.spec.ts: the public typings must describe
// the contract exactly (these lines would not compile against wrong types).
import {
  CodeRuntime,
  PORTABLE_RESERVED_WORDS,
  RESERVED_BINDING_GLOBALS,
  RESERVED_ERROR_MEMBERS,
  type CodeBindingErrorClass,
  type CodeBindingFunction,
  type CodeBindingNamespace,
  type CodeJsonValue,
  type CodeRunFailure,
  type CodeRunRequest,
  type CodeRunResult,
  type CodeRuntimeConfig,
} from '../../index.js'

const config: CodeRuntimeConfig = { computeMs: 1000, maxWallMs: 5000, maxOutputBytes: 1 << 20, maxHeapMb: 64, threads: 2 }
const echo: CodeBindingFunction = async (args) => args as CodeJsonValue
const errorClass: CodeBindingErrorClass = { name: 'ToolCallError', memberNameProperty: 'toolName' }
const tools: CodeBindingNamespace = { global: 'tools', functions: { echo }, errorClass }
const request: CodeRunRequest = { program: 'return 1', bindings: [tools], signal: new AbortController().signal }

async function main(): Promise<void> {
  const runtime = new CodeRuntime(config)
  const language: 'typescript' = runtime.language
  const isolation: 'quickjs' = runtime.isolation
  const result: CodeRunResult = await runtime.run(request)
  const logs: string[] = result.logs
  const value: CodeJsonValue | undefined = result.value
  const failure: CodeRunFailure | undefined = result.error
  const kind: 'exception' | 'timeout' | 'abort' | 'worker-exit' | 'invalid-output' | 'output-limit' | undefined = failure?.kind
  const reserved: boolean = RESERVED_BINDING_GLOBALS.has('console') && RESERVED_ERROR_MEMBERS.has('name') && PORTABLE_RESERVED_WORDS.has('await')
  await runtime.dispose()
  await runtime[Symbol.asyncDispose]()
  void [language, isolation, logs, value, kind, reserved]
}
void main
// @ts-expect-error a config key that does not exist
new CodeRuntime({ computeMS: 1 })
// @ts-expect-error run() needs bindings
void new CodeRuntime().run({ program: 'return 1' })
