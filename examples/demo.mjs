// `npm start`: runs examples/demo.ts in a fresh sandbox against two async "tools" and
// prints what the program logged and returned.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { CodeRuntime } = require('../index.js')

const ORDERS = {
  'a-1': { id: 'a-1', items: 3, priceCents: 1299 },
  'b-2': { id: 'b-2', items: 1, priceCents: 45000 },
  'c-3': { id: 'c-3', items: 7, priceCents: 350 },
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const tools = {
  async listOrders({ customer }) {
    await sleep(5)
    return customer === 'acme' ? Object.keys(ORDERS) : []
  },
  async getOrder({ id }) {
    await sleep(10)
    if (!ORDERS[id]) throw new Error(`no order ${JSON.stringify(id)}`)
    return ORDERS[id]
  },
}

const program = readFileSync(new URL('./demo.ts', import.meta.url), 'utf8')
const runtime = new CodeRuntime({ computeMs: 5000 })
const started = process.hrtime.bigint()
const result = await runtime.run({
  program,
  bindings: [{ global: 'tools', functions: tools, errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' } }],
})
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
