// `npm start`: runs examples/demo.ts in a fresh sandbox and prints its logs and value.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { CodeRuntime } = require('../index.js')

const program = readFileSync(new URL('./demo.ts', import.meta.url), 'utf8')
const runtime = new CodeRuntime({ computeMs: 5000 })
const started = process.hrtime.bigint()
const result = await runtime.run({ program, bindings: [] })
const ms = Number(process.hrtime.bigint() - started) / 1e6
await runtime.dispose()

for (const line of result.logs) console.log(`[log] ${line}`)
if (result.error) {
  console.log(`[error] ${result.error.kind}: ${result.error.message}`)
  process.exitCode = 1
} else {
  console.log('[value]', JSON.stringify(result.value, null, 2))
}
console.log(`(ran in ${ms.toFixed(2)} ms)`)
