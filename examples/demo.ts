// A program like the ones a model writes: typed, async, calls the agent's tools in
// parallel, logs as it goes, and returns JSON.
interface Order { id: string; items: number; priceCents: number }

enum Tier { Basic = 'basic', Gold = 'gold' }

const ids: string[] = await tools.listOrders({ customer: 'acme' })
console.log('orders:', ids.length)

const orders: Order[] = await Promise.all(ids.map((id) => tools.getOrder({ id })))
const tierOf = (o: Order): Tier => (o.priceCents * o.items > 10_000 ? Tier.Gold : Tier.Basic)
const totals = orders.map((o) => ({ id: o.id, totalCents: o.items * o.priceCents, tier: tierOf(o) }))
console.log('gold:', totals.filter((t) => t.tier === Tier.Gold).map((t) => t.id))

try {
  await tools.getOrder({ id: 'missing' })
} catch (e) {
  if (e instanceof ToolCallError) console.log(`${e.toolName} failed: ${e.message}`)
}

return { grandTotalCents: totals.reduce((sum, t) => sum + t.totalCents, 0), totals }
