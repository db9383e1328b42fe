import { describe, expect, test } from 'vitest'
import { CodeRuntime } from './helpers'

describe('thread pool', () => {
  test('spinning programs never hold up other runs', async () => {
    const rt = new CodeRuntime({ computeMs: 3000, threads: 2 })
    try {
      const hot = Array.from({ length: 4 }, () => rt.run({ program: 'for (;;) {}', bindings: [] }))
      await new Promise((r) => setTimeout(r, 50))
      for (let i = 0; i < 20; i++) {
        const started = Date.now()
        expect(await rt.run({ program: 'return 1', bindings: [] })).toEqual({ logs: [], value: 1 })
        // Generous: without new threads a run would wait out a 3 s budget.
        expect(Date.now() - started).toBeLessThan(500)
      }
      for (const r of await Promise.all(hot)) expect(r.error?.kind).toBe('timeout')
    } finally {
      await rt.dispose()
    }
  })

  test('runs after hot programs still meet their budgets on demoted or replaced threads', async () => {
    const rt = new CodeRuntime({ computeMs: 200, threads: 1 })
    try {
      for (let i = 0; i < 3; i++) {
        const r = await rt.run({ program: 'for (;;) {}', bindings: [] })
        expect(r.error).toEqual({ kind: 'timeout', message: 'compute budget exhausted (200ms busy)' })
        expect(await rt.run({ program: 'return 2', bindings: [] })).toEqual({ logs: [], value: 2 })
      }
    } finally {
      await rt.dispose()
    }
  })
})
