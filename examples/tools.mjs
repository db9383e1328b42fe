// Async "tools" for examples/demo.ts: every exported function becomes `tools.<name>`.
const ORDERS = {
  'a-1': { id: 'a-1', items: 3, priceCents: 1299 },
  'b-2': { id: 'b-2', items: 1, priceCents: 45000 },
  'c-3': { id: 'c-3', items: 7, priceCents: 350 },
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

export async function listOrders({ customer }) {
  await sleep(5)
  return customer === 'acme' ? Object.keys(ORDERS) : []
}

export async function getOrder({ id }) {
  await sleep(10)
  if (!ORDERS[id]) throw new Error(`no order ${JSON.stringify(id)}`)
  return ORDERS[id]
}
