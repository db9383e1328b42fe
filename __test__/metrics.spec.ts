import { afterAll, describe, expect, test } from 'vitest'
import { runOn, runtime } from './helpers'

// Issue 10, metrics: a plain JSON snapshot whose counters move as documented in index.d.ts.
const rt = runtime({ computeMs: 200 })
afterAll(() => rt.dispose())

describe('runtime.metrics()', () => {
  test('a fresh runtime reports zeros and no latency', () => {
    const fresh = runtime()
    try {
      const m = fresh.metrics()
      expect(m.runs).toEqual({
        started: 0,
        inFlight: 0,
        settled: { ok: 0, exception: 0, timeout: 0, abort: 0, 'worker-exit': 0, 'invalid-output': 0, 'output-limit': 0 },
      })
      expect(m.sessions).toEqual({ open: 0 })
      expect(m.hostCalls).toBe(0)
      expect(m.cpuMs).toBe(0)
      expect(m.latencyMs).toEqual({ p50: null, p99: null, window: 0 })
      expect(m.threads.busy).toBe(m.threads.total - m.threads.ready)
      expect(JSON.parse(JSON.stringify(m))).toEqual(m)
    } finally {
      void fresh.dispose()
    }
  })

  test('counters move with runs, outcomes, host calls and CPU', async () => {
    const before = rt.metrics()
    const ac = new AbortController()
    ac.abort('stop')
    await Promise.all([
      runOn(rt, 'return 1'),
      runOn(rt, 'console.log(1)'),
      runOn(rt, 'throw new Error("x")'),
      runOn(rt, 'for (;;) {}'),
      runOn(rt, 'return () => 1'),
      runOn(rt, 'return 1', { signal: ac.signal }),
      rt.run({
        program: 'await tools.a({}); await Promise.all([tools.a({}), tools.a({})]); return 2',
        bindings: [{ global: 'tools', functions: { a: async () => 1 } }],
      }),
    ])
    const m = rt.metrics()
    expect(m.runs.started - before.runs.started).toBe(7)
    expect(m.runs.inFlight).toBe(0)
    const delta = (k: keyof typeof m.runs.settled) => m.runs.settled[k] - before.runs.settled[k]
    expect([delta('ok'), delta('exception'), delta('timeout'), delta('invalid-output'), delta('abort')]).toEqual([3, 1, 1, 1, 1])
    expect(m.hostCalls - before.hostCalls).toBe(3)
    // The hot loop alone used its 200 ms compute budget.
    expect(m.cpuMs - before.cpuMs).toBeGreaterThanOrEqual(150)
    expect(m.latencyMs.window).toBe(before.latencyMs.window + 7)
    expect(m.latencyMs.p50).toBeGreaterThan(0)
    expect(m.latencyMs.p99!).toBeGreaterThanOrEqual(m.latencyMs.p50!)
  })

  test('in-flight runs and busy threads show while programs run', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const waiting = rt.run({
      program: 'return await tools.wait({})',
      bindings: [{ global: 'tools', functions: { wait: () => gate.then(() => 5) } }],
    })
    const hot = runOn(rt, 'for (;;) {}')
    let sawBusy = false
    let sawInFlight = false
    for (let i = 0; i < 200 && !(sawBusy && sawInFlight); i++) {
      const m = rt.metrics()
      sawBusy ||= m.threads.busy >= 1
      sawInFlight ||= m.runs.inFlight === 2
      await new Promise((r) => setTimeout(r, 1))
    }
    release()
    expect(await waiting).toEqual({ logs: [], value: 5 })
    expect((await hot).error?.kind).toBe('timeout')
    expect(sawInFlight).toBe(true)
    expect(sawBusy).toBe(true)
    expect(rt.metrics().runs.inFlight).toBe(0)
  })

  test('the latency window keeps the last 1,024 runs', async () => {
    const small = runtime()
    try {
      for (let i = 0; i < 1100; i += 100) await Promise.all(Array.from({ length: 100 }, () => runOn(small, 'return 1')))
      expect(small.metrics().latencyMs.window).toBe(1024)
      expect(small.metrics().runs.settled.ok).toBe(1100)
    } finally {
      await small.dispose()
    }
  })
})

describe('runtime.metrics() with sessions', () => {
  test('a session run counts once in flight and its CPU once', async () => {
    const local = runtime({ computeMs: 300 })
    try {
      const s = local.openSession()
      const before = local.metrics()
      const hot = s.run({ program: 'for (;;) {}', bindings: [] })
      let maxInFlight = 0
      while ((await Promise.race([hot.then(() => true), new Promise((r) => setTimeout(() => r(false), 5))])) === false) {
        maxInFlight = Math.max(maxInFlight, local.metrics().runs.inFlight)
      }
      expect((await hot).error?.kind).toBe('timeout')
      const m = local.metrics()
      expect(maxInFlight).toBe(1)
      // The run used its 300 ms budget; counted twice it would be ~600 ms.
      expect(m.cpuMs - before.cpuMs).toBeGreaterThanOrEqual(250)
      expect(m.cpuMs - before.cpuMs).toBeLessThan(500)
      await new Promise((r) => setTimeout(r, 20))
      expect(local.metrics().cpuMs).toBe(m.cpuMs)
      await s.dispose()
    } finally {
      await local.dispose()
    }
  })
})
