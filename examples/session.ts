// A persistent session on code-runtime-quickjs: what one run declares, the next one sees, as
// in a notebook. Run it with
//
//   npm run example:session     (scripts/run-ts.mjs strips the types with the repo's TypeScript)
//
// types.spec.ts type-checks it (tsc --strict).
import { CodeRuntime, type CodeBindingNamespace } from 'code-runtime-quickjs'

const ORDERS = [
  { id: 'a-1', open: true, cents: 1299 },
  { id: 'b-2', open: false, cents: 45000 },
  { id: 'c-3', open: true, cents: 350 },
]

const bindings: CodeBindingNamespace[] = [
  { global: 'tools', functions: { listOrders: async () => ORDERS } },
]

async function main() {
  await using runtime = new CodeRuntime({ computeMs: 2000 })
  await using session = runtime.openSession({ maxHeapMb: 64 })

  // Cell 1: fetch once, keep it.
  await session.run({
    program: `
      type Order = { id: string; open: boolean; cents: number }
      const orders: Order[] = await tools.listOrders({})
      function total(list: Order[]) { return list.reduce((sum, o) => sum + o.cents, 0) }
      console.log('fetched', orders.length)
    `,
    bindings,
    onLog: (line) => console.log('[live]', line),
  })

  // Cell 2: use what cell 1 declared.
  const open = await session.run({ program: 'return total(orders.filter((o) => o.open))', bindings })
  console.log('open total (cents):', open.value)

  // Cell 3: a timeout does not lose the session.
  const stuck = await session.run({ program: 'globalThis.note = "kept"; for (;;) {}', bindings })
  console.log('stuck run:', stuck.error?.kind)
  const after = await session.run({ program: 'return [note, orders.length]', bindings })
  console.log('after the timeout:', after.value)

  console.log('metrics:', JSON.stringify(runtime.metrics()))
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
