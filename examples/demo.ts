// A program like the ones a model writes: typed, async, logs as it goes, returns JSON.
interface Order { id: string; items: number; priceCents: number }

enum Tier { Basic = 'basic', Gold = 'gold' }

const orders: Order[] = [
  { id: 'a-1', items: 3, priceCents: 1299 },
  { id: 'b-2', items: 1, priceCents: 45000 },
  { id: 'c-3', items: 7, priceCents: 350 },
]

const tierOf = (o: Order): Tier => (o.priceCents * o.items > 10_000 ? Tier.Gold : Tier.Basic)

const totals = await Promise.all(orders.map(async (o) => ({ id: o.id, totalCents: o.items * o.priceCents, tier: tierOf(o) })))
console.log('orders:', totals.length)
console.log('gold:', totals.filter((t) => t.tier === Tier.Gold).map((t) => t.id))

return { grandTotalCents: totals.reduce((sum, t) => sum + t.totalCents, 0), totals }
