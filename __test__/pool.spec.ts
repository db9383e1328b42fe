import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
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

  test('runs after hot programs still meet their budgets on the same threads', async () => {
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

  // One busy process per core at the default priority (a shared agent host): a program that
  // computes still gets its share of a core. (Hot threads at SCHED_IDLE ran only when nothing
  // else wanted a core: a 20 ms program took seconds.) Generous: this catches starvation, it
  // does not time the run.
  test('a program that computes finishes beside one busy process per core', async () => {
    const rt = new CodeRuntime({ threads: 2 })
    const program = 'let s = 0; for (let i = 0; i < 3e6; i++) s += i; return s'
    const hog = 'const parent = process.ppid; for (;;) { for (let i = 0; i < 1e7; i++); if (process.ppid !== parent) process.exit() }'
    const hogs: ReturnType<typeof spawn>[] = []
    try {
      await rt.run({ program, bindings: [] })
      const t0 = performance.now()
      expect((await rt.run({ program, bindings: [] })).value).toBe(4499998500000)
      const alone = performance.now() - t0
      for (let i = 0; i < availableParallelism(); i++) hogs.push(spawn(process.execPath, ['-e', hog], { stdio: 'ignore' }))
      await new Promise((r) => setTimeout(r, 200))
      const busy = new CodeRuntime({ threads: 2, maxWallMs: Math.round(Math.max(5000, alone * 40)) })
      try {
        for (let i = 0; i < 3; i++) expect(await busy.run({ program, bindings: [] })).toEqual({ logs: [], value: 4499998500000 })
      } finally {
        await busy.dispose()
      }
    } finally {
      for (const h of hogs) h.kill('SIGKILL')
      await rt.dispose()
    }
  }, 60_000)
})
