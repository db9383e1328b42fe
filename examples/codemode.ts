// Code Mode (@cloudflare/codemode) on code-runtime-quickjs: instead of calling tools one by one,
// the model writes one async arrow function that calls them, and QuickJSExecutor runs it in a
// fresh QuickJS sandbox. Run it with
//
//   npm run example:codemode     (scripts/run-ts.mjs strips the types with the repo's TypeScript)
//
// types.spec.ts type-checks it (tsc --strict).
// `createBrowserCodeTool` is the package's dependency-free tool factory (JSON Schema tools);
// it loads in Node, unlike `createCodeTool` from '@cloudflare/codemode/ai' in 0.5.6 (see README).
import { createBrowserCodeTool } from '@cloudflare/codemode/browser'
import { QuickJSExecutor } from 'code-runtime-quickjs/codemode'

const ORDERS: Record<string, { id: string; items: number; priceCents: number }> = {
  'a-1': { id: 'a-1', items: 3, priceCents: 1299 },
  'b-2': { id: 'b-2', items: 1, priceCents: 45000 },
  'c-3': { id: 'c-3', items: 7, priceCents: 350 },
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const tools = {
  listOrders: {
    description: 'Order ids of a customer',
    inputSchema: { type: 'object' as const, properties: { customer: { type: 'string' as const } }, required: ['customer'] },
    execute: async ({ customer }: Record<string, unknown>) => {
      await sleep(5)
      return customer === 'acme' ? Object.keys(ORDERS) : []
    },
  },
  getOrder: {
    description: 'One order',
    inputSchema: { type: 'object' as const, properties: { id: { type: 'string' as const } }, required: ['id'] },
    execute: async ({ id }: Record<string, unknown>) => {
      await sleep(10)
      const order = ORDERS[String(id)]
      if (!order) throw new Error(`no order ${JSON.stringify(id)}`)
      return order
    },
  },
}

// What a model sends as the tool call's `code` (TypeScript is fine too: types are stripped).
const code = `async () => {
  const ids = await codemode.listOrders({ customer: 'acme' })
  const orders = await Promise.all(ids.map((id) => codemode.getOrder({ id })))
  console.log('orders:', orders.length)
  try {
    await codemode.getOrder({ id: 'missing' })
  } catch (e) {
    console.warn(e.message)
  }
  return orders.map((o) => ({ id: o.id, totalCents: o.items * o.priceCents }))
}`

async function main() {
  // Per-run CPU budget and heap come from the runtime config; timeoutMs is wall clock per execution.
  const executor = new QuickJSExecutor({ runtime: { computeMs: 5_000, maxHeapMb: 64 }, timeoutMs: 10_000 })
  try {
    const codemodeTool = createBrowserCodeTool({ tools, executor })
    console.log(codemodeTool.description.split('Write an async arrow function')[0].trim())
    console.log('\n--- tool call ---')
    console.log(await codemodeTool.execute({ code }))

    // The executor directly: two namespaces, one with positional arguments, called in parallel.
    console.log('\n--- executor.execute ---')
    const result = await executor.execute(
      `async () => {
        const [text, orders] = await Promise.all([files.read('/notes.txt', 'utf8'), codemode.listOrders({ customer: 'acme' })])
        return { text, orders }
      }`,
      [
        { name: 'codemode', fns: { listOrders: async (args) => tools.listOrders.execute(args as Record<string, unknown>) } },
        { name: 'files', fns: { read: async (path, encoding) => `${path} read as ${encoding}` }, positionalArgs: true },
      ],
    )
    console.log(result)
  } finally {
    await executor.dispose()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
