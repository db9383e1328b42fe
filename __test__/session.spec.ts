import { afterAll, describe, expect, test } from 'vitest'
import type { CodeBindingNamespace, CodeSession } from '../index'
import { api, runtime } from './helpers'

// Issue 10, sessions: one JavaScript world per session, runs one at a time, top-level
// declarations and globals persist, budgets per run, the heap limit per session.
const rt = runtime({ computeMs: 500 })
afterAll(() => rt.dispose())

const run = (s: CodeSession, program: string, ...bindings: CodeBindingNamespace[]) => s.run({ program, bindings })
const value = async (s: CodeSession, program: string) => {
  const r = await run(s, program)
  expect(r.error, program).toBeUndefined()
  return r.value
}

describe('a session keeps its world between runs', () => {
  test('const, let, var, function and class declarations and globals persist', async () => {
    const s = rt.openSession()
    try {
      await value(s, 'const a: number = 1\nlet b = 2\nvar c = 3\nfunction add(x: number, y: number) { return x + y }\nclass Counter { n = 0; inc() { return ++this.n } }\nglobalThis.g = "global"')
      expect(await value(s, 'return [a, b, c, add(a, b), new Counter().inc(), (globalThis as any).g]')).toEqual([1, 2, 3, 3, 1, 'global'])
      expect(await value(s, 'b = b + 10\nreturn b')).toBe(12)
      expect(await value(s, 'return b')).toBe(12)
    } finally {
      await s.dispose()
    }
  })

  test('destructuring, enums and functions used before their declaration', async () => {
    const s = rt.openSession()
    try {
      await value(s, 'const { x, y: [first, ...rest] } = { x: 1, y: [2, 3, 4] }\nenum Color { Red, Green }\nhoisted()\nfunction hoisted() { return 1 }')
      expect(await value(s, 'return [x, first, rest, Color.Green, Color[1], hoisted()]')).toEqual([1, 2, [3, 4], 1, 'Green', 1])
    } finally {
      await s.dispose()
    }
  })

  test('redeclaring a name in a later run replaces it', async () => {
    const s = rt.openSession()
    try {
      await value(s, 'const limit = 1\nfunction f() { return "old" }\nclass K { v() { return 1 } }')
      await value(s, 'const limit = 2\nfunction f() { return "new" }\nclass K { v() { return 2 } }')
      expect(await value(s, 'return [limit, f(), new K().v()]')).toEqual([2, 'new', 2])
    } finally {
      await s.dispose()
    }
  })

  test('sessions are isolated from each other and from plain runs', async () => {
    const a = rt.openSession()
    const b = rt.openSession()
    try {
      await value(a, 'const secret = "a"\nglobalThis.shared = "a"')
      expect(await value(b, 'return [typeof secret, typeof (globalThis as any).shared]')).toEqual(['undefined', 'undefined'])
      const plain = await rt.run({ program: 'return [typeof secret, typeof (globalThis as any).shared]', bindings: [] })
      expect(plain.value).toEqual(['undefined', 'undefined'])
      expect(await value(a, 'return secret')).toBe('a')
    } finally {
      await Promise.all([a.dispose(), b.dispose()])
    }
  })

  test('concurrent run() calls execute one at a time, in call order', async () => {
    const s = rt.openSession()
    try {
      const order: string[] = []
      const tools = (name: string): CodeBindingNamespace => ({
        global: 'tools',
        functions: {
          mark: async () => {
            order.push(name)
            await new Promise((r) => setTimeout(r, 20))
            return name
          },
        },
      })
      const results = await Promise.all([
        run(s, 'globalThis.log = (globalThis.log ?? []).concat(await tools.mark({}))\nreturn log', tools('first')),
        run(s, 'globalThis.log = (globalThis.log ?? []).concat(await tools.mark({}))\nreturn log', tools('second')),
        run(s, 'return log', tools('third')),
      ])
      expect(order).toEqual(['first', 'second'])
      expect(results.map((r) => r.value)).toEqual([['first'], ['first', 'second'], ['first', 'second']])
    } finally {
      await s.dispose()
    }
  })

  test('an exception in one run leaves the session usable', async () => {
    const s = rt.openSession()
    try {
      await value(s, 'const kept = 7')
      const r = await run(s, 'const more = 1\nthrow new Error("boom")')
      expect(r.error?.kind).toBe('exception')
      expect(await value(s, 'return [kept, more]')).toEqual([7, 1])
    } finally {
      await s.dispose()
    }
  })

  test('a timeout and an abort stop the run and keep what it had already done', async () => {
    const s = rt.openSession()
    try {
      const t = await run(s, 'globalThis.before = 1\nfor (;;) {}')
      expect(t.error).toEqual({ kind: 'timeout', message: 'compute budget exhausted (500ms busy)' })
      const ac = new AbortController()
      const pending = s.run({ program: 'globalThis.second = 2\nawait new Promise(() => setTimeout(() => {}, 60_000))', bindings: [], signal: ac.signal })
      setTimeout(() => ac.abort('enough'), 30)
      expect((await pending).error).toEqual({ kind: 'abort', message: 'enough' })
      expect(await value(s, 'return [before, second]')).toEqual([1, 2])
    } finally {
      await s.dispose()
    }
  })

  test('heap exhaustion kills the session: later runs fail fast with worker-exit saying why', async () => {
    const s = rt.openSession({ maxHeapMb: 8 })
    try {
      await value(s, 'const small = 1')
      const dead = await run(s, 'const hog: string[] = []\nfor (;;) hog.push("x".repeat(1024))')
      expect(dead.error).toEqual({ kind: 'worker-exit', message: 'the program exceeded its JavaScript heap limit of 8 MB and was stopped' })
      const started = performance.now()
      const later = await run(s, 'return small')
      expect(later).toEqual({
        logs: [],
        error: { kind: 'worker-exit', message: 'the session is dead: the program exceeded its JavaScript heap limit of 8 MB and was stopped' },
      })
      expect(performance.now() - started).toBeLessThan(1000)
    } finally {
      await s.dispose()
    }
  })

  test('bindings belong to their run; one kept from an earlier run refuses to call', async () => {
    const s = rt.openSession()
    try {
      const echo: CodeBindingNamespace = { global: 'tools', functions: { echo: async (x) => x } }
      expect((await run(s, 'globalThis.kept = tools.echo\nreturn await tools.echo({ n: 1 })', echo)).value).toEqual({ n: 1 })
      const r = await run(s, 'try { await kept({}) } catch (e) { return String(e) }\nreturn "called"', echo)
      expect(r.value).toBe("TypeError: this binding function belongs to an earlier run of the session; call the current run's bindings")
      expect((await run(s, 'return await tools.echo({ n: 2 })', echo)).value).toEqual({ n: 2 })
    } finally {
      await s.dispose()
    }
  })

  test('logs, onLog and output caps are per run', async () => {
    const s = rt.openSession()
    try {
      const seen: string[] = []
      const a = await s.run({ program: 'console.log("one")', bindings: [], onLog: (t) => seen.push(t) })
      const b = await s.run({ program: 'console.log("two"); return 2', bindings: [] })
      expect(a).toEqual({ logs: ['one'] })
      expect(b).toEqual({ logs: ['two'], value: 2 })
      expect(seen).toEqual(['one'])
    } finally {
      await s.dispose()
    }
  })
})

describe('session lifecycle', () => {
  test('dispose() aborts the run in progress and queued runs; later run() rejects', async () => {
    const s = rt.openSession()
    const inProgress = run(s, 'await new Promise(() => setTimeout(() => {}, 60_000))')
    const queued = run(s, 'return 1')
    await new Promise((r) => setTimeout(r, 30))
    await s.dispose()
    expect(await inProgress).toEqual({ logs: [], error: { kind: 'abort', message: 'session disposed' } })
    expect(await queued).toEqual({ logs: [], error: { kind: 'abort', message: 'session disposed' } })
    await expect(run(s, 'return 1')).rejects.toThrow('CodeSession.run() called after disposal')
    await s.dispose()
  })

  test('runtime.dispose() disposes its sessions; await using works', async () => {
    const local = runtime()
    const s = local.openSession()
    expect(local.metrics().sessions.open).toBe(1)
    const pending = run(s, 'await new Promise(() => setTimeout(() => {}, 60_000))')
    await new Promise((r) => setTimeout(r, 30))
    await local.dispose()
    expect((await pending).error).toEqual({ kind: 'abort', message: 'runtime disposed' })
    await expect(run(s, 'return 1')).rejects.toThrow('CodeSession.run() called after disposal')
    expect(() => local.openSession()).toThrow('CodeRuntime.openSession() called after disposal')
    expect(local.metrics().sessions.open).toBe(0)

    const other = runtime()
    {
      await using session = other.openSession()
      expect((await run(session, 'return 5')).value).toBe(5)
      expect(other.metrics().sessions.open).toBe(1)
    }
    expect(other.metrics().sessions.open).toBe(0)
    await other.dispose()
  })

  test('options are validated like the runtime config', () => {
    expect(() => rt.openSession({ threads: 2 } as never)).toThrow('CodeRuntime.openSession() options has an unknown key "threads"')
    expect(() => rt.openSession({ maxHeapMb: -1 })).toThrow(RangeError)
    expect(() => new (api.CodeSession as unknown as new () => unknown)()).toThrow('CodeSession is created by CodeRuntime.openSession()')
  })
})
