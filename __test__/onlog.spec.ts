import { afterAll, describe, expect, test } from 'vitest'
import { runtime } from './helpers'

// Issue 10, live logs: `onLog` receives each entry on the main thread as the program emits
// it, in order, before run() settles; `result.logs` is unchanged.
const rt = runtime()
afterAll(() => rt.dispose())

describe('onLog', () => {
  test('entries arrive in order while the program is still awaiting a host call', async () => {
    const seen: string[] = []
    let seenWhileWaiting: string[] = []
    const r = await rt.run({
      program: 'console.log("a"); console.info({ b: 1 }); const x = await tools.wait({}); console.log("c", x); return x',
      bindings: [
        {
          global: 'tools',
          functions: {
            // Answers only once both earlier entries have been delivered: the run would time out
            // if entries waited for the result.
            wait: async () => {
              const start = Date.now()
              while (seen.length < 2 && Date.now() - start < 10_000) await new Promise((r) => setTimeout(r, 1))
              seenWhileWaiting = [...seen]
              return 7
            },
          },
        },
      ],
      onLog: (text) => seen.push(text),
    })
    expect(seenWhileWaiting).toEqual(['a', '{ b: 1 }'])
    expect(r).toEqual({ logs: ['a', '{ b: 1 }', 'c 7'], value: 7 })
    expect(seen).toEqual(r.logs)
  })

  test('every entry is delivered before run() settles, also from a busy loop and on failure', async () => {
    const seen: string[] = []
    let settledWith = -1
    const p = rt
      .run({
        program: 'for (let i = 0; i < 1000; i++) console.log(String(i))\nthrow new Error("late")',
        bindings: [],
        onLog: (text) => seen.push(text),
      })
      .then((r) => {
        settledWith = seen.length
        return r
      })
    const r = await p
    expect(settledWith).toBe(1000)
    expect(seen).toEqual(r.logs)
    expect(r.error?.kind).toBe('exception')
  })

  test('entries past the output cap are not delivered', async () => {
    const small = runtime({ maxOutputBytes: 1000 })
    try {
      const seen: string[] = []
      const r = await small.run({
        program: 'for (let i = 0; i < 100; i++) console.log("x".repeat(50) + i)',
        bindings: [],
        onLog: (text) => seen.push(text),
      })
      expect(r.error?.kind).toBe('output-limit')
      expect(seen.length).toBeGreaterThan(0)
      expect(seen.length).toBeLessThan(100)
      expect(JSON.stringify(seen).length).toBeLessThanOrEqual(1000)
      // What was delivered is what the result kept (the result may cut its last entry so the
      // failure message fits too).
      const last = seen.length - 1
      expect(seen.slice(0, last)).toEqual(r.logs.slice(0, last))
      expect(seen[last].startsWith(r.logs[last])).toBe(true)
      expect(r.logs.length).toBeLessThanOrEqual(seen.length)
    } finally {
      await small.dispose()
    }
  })

  test('a throwing onLog is reported once as a process warning and never breaks the run', async () => {
    const warnings: Error[] = []
    const onWarning = (w: Error) => warnings.push(w)
    process.on('warning', onWarning)
    try {
      let calls = 0
      const r = await rt.run({
        program: 'console.log(1); console.log(2); console.log(3); return "done"',
        bindings: [],
        onLog: () => {
          calls++
          throw new Error('listener broke')
        },
      })
      await new Promise((resolve) => setImmediate(resolve))
      expect(r).toEqual({ logs: ['1', '2', '3'], value: 'done' })
      expect(calls).toBe(3)
      const ours = warnings.filter((w) => (w as { code?: string }).code === 'CODE_RUNTIME_ONLOG_THREW')
      expect(ours).toHaveLength(1)
      expect(ours[0].message).toContain('listener broke')
    } finally {
      process.off('warning', onWarning)
    }
  })

  test('onLog must be a function', async () => {
    await expect(rt.run({ program: 'return 1', bindings: [], onLog: 'no' as never })).rejects.toThrow(
      'CodeRuntime.run() request.onLog must be a function (got "no")',
    )
  })

  test('runs without onLog are unchanged', async () => {
    expect(await rt.run({ program: 'console.log("q"); return 1', bindings: [] })).toEqual({ logs: ['q'], value: 1 })
  })
})
