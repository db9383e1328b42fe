import { afterAll, describe, expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { getEventListeners } from 'node:events'
import { join } from 'node:path'
import type * as Api from '../index'
import { CodeRuntime, runOn, runtime } from './helpers'

const made: Api.CodeRuntime[] = []
const make = (config?: Api.CodeRuntimeConfig) => {
  const r = runtime(config)
  made.push(r)
  return r
}
afterAll(() => Promise.all(made.map((r) => r.dispose())))

const rt = make()
const run = (program: string) => runOn(rt, program)
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms))
const never = () => new Promise<never>(() => {})
const waitTools = [{ global: 'tools', functions: { wait: never } }]
const COMPUTE = { kind: 'timeout', message: 'compute budget exhausted (200ms busy)' }
const WALL = { kind: 'timeout', message: 'wall-clock ceiling reached (300ms)' }
const overCap = (n: number) => ({ kind: 'output-limit', message: `outer output exceeded ${n} bytes` })
/** An output-limit whose message was cut to fit beside the logs kept (the cap is below `[]` plus the whole message). */
const cutOverCap = (message: string) => ({ kind: 'output-limit', message })
const outputBytes = (r: Api.CodeRunResult) => Buffer.byteLength(JSON.stringify(r.logs)) + Buffer.byteLength(JSON.stringify(r.error?.message ?? ''))

describe('timers', () => {
  test('a 0 ms timer fires after a microtask', async () => {
    const r = await run(`
      const out: string[] = []
      setTimeout(() => out.push('timer'), 0)
      Promise.resolve().then(() => out.push('micro'))
      await new Promise((r) => setTimeout(r, 20))
      return out
    `)
    expect(r).toEqual({ logs: [], value: ['micro', 'timer'] })
  })

  test('two timers with equal delays fire in creation order', async () => {
    const r = await run(`
      const out: number[] = []
      setTimeout(() => out.push(1), 20)
      setTimeout(() => out.push(2), 20)
      setTimeout(() => out.push(3), 20)
      await new Promise((r) => setTimeout(r, 100))
      return out
    `)
    expect(r).toEqual({ logs: [], value: [1, 2, 3] })
  })

  test('an interval that clears itself after 3 ticks ticks exactly 3 times', async () => {
    const r = await run(`
      let n = 0
      await new Promise<void>((r) => {
        const id = setInterval(() => { n++; if (n === 3) { clearInterval(id); r() } }, 5)
      })
      await new Promise((r) => setTimeout(r, 60))
      return n
    `)
    expect(r).toEqual({ logs: [], value: 3 })
  })

  test('extra arguments are passed to the callback', async () => {
    const r = await run(`return await new Promise((r) => setTimeout((a, b, c) => r([a, b, c]), 1, 'x', 2, { k: true }))`)
    expect(r).toEqual({ logs: [], value: ['x', 2, { k: true }] })
  })

  test('setTimeout(f) with no delay works', async () => {
    const r = await run(`await new Promise((r) => setTimeout(r)); return 'ok'`)
    expect(r).toEqual({ logs: [], value: 'ok' })
  })

  test('a timer cleared inside its own callback does not fire again', async () => {
    const r = await run(`
      let n = 0
      let m = 0
      const t = setTimeout(() => { m++; clearTimeout(t) }, 0)
      const id = setInterval(() => { n++; clearInterval(id) }, 1)
      await new Promise((r) => setTimeout(r, 60))
      return [n, m]
    `)
    expect(r).toEqual({ logs: [], value: [1, 1] })
  })

  test('nested timers fire in order', async () => {
    const r = await run(`
      const out: number[] = []
      await new Promise<void>((r) => setTimeout(() => {
        out.push(1)
        setTimeout(() => { out.push(2); setTimeout(() => { out.push(3); r() }, 0) }, 5)
      }, 5))
      return out
    `)
    expect(r).toEqual({ logs: [], value: [1, 2, 3] })
  })

  test('timer ids are numbers', async () => {
    const r = await run(`
      const a = setTimeout(() => {}, 1000)
      const b = setInterval(() => {}, 1000)
      clearTimeout(a)
      clearInterval(b)
      return [typeof a, typeof b, a !== b]
    `)
    expect(r).toEqual({ logs: [], value: ['number', 'number', true] })
  })
})

describe('compute budget', () => {
  const hot = make({ computeMs: 200 })

  test.each([
    ['for(;;){}', 'for (;;) {}'],
    ['a loop that swallows every exception', 'for (;;) { try { for (;;) {} } catch {} }'],
    ['a loop inside finally', 'try { throw new Error("x") } finally { for (;;) {} }'],
    ['an endless microtask chain', 'const f = () => Promise.resolve().then(f); f(); await new Promise(() => {})'],
  ])('%s ends with a compute timeout', async (_, program) => {
    const r = await runOn(hot, `console.log('start'); ${program}`)
    expect(r).toEqual({ logs: ['start'], error: COMPUTE })
  })

  test('a hot loop accrues compute while a binding call it fired is pending', async () => {
    const r = await hot.run({ program: 'tools.wait({}); for (;;) {}', bindings: waitTools })
    expect(r).toEqual({ logs: [], error: COMPUTE })
  })

  test('a 1 s slow binding and an 800 ms timer cost no compute', async () => {
    const slow = async () => (await sleep(1000), 'slow')
    const r = await hot.run({
      program: `
        const a = await tools.slow({})
        await new Promise((r) => setTimeout(r, 800))
        return a
      `,
      bindings: [{ global: 'tools', functions: { slow } }],
    })
    expect(r).toEqual({ logs: [], value: 'slow' })
  })
})

describe('wall-clock ceiling', () => {
  const walled = make({ maxWallMs: 300 })

  test.each([
    ['an idle run awaiting a 60 s timer', 'await new Promise((r) => setTimeout(r, 60_000))'],
    ['an endless setTimeout(tick, 0) chain', 'const tick = () => setTimeout(tick, 0); tick(); await new Promise(() => {})'],
  ])('%s ends with a wall timeout', async (_, program) => {
    const t0 = performance.now()
    const r = await runOn(walled, program)
    expect(r).toEqual({ logs: [], error: WALL })
    expect(performance.now() - t0).toBeLessThan(5000)
  })
})

describe('abort', () => {
  test('abort mid-loop resolves within 100 ms and keeps earlier logs', async () => {
    const ac = new AbortController()
    const p = runOn(rt, 'console.log("before"); for (;;) {}', { signal: ac.signal })
    await sleep(150)
    const t0 = performance.now()
    ac.abort('why')
    const r = await p
    const elapsed = performance.now() - t0
    expect(r).toEqual({ logs: ['before'], error: { kind: 'abort', message: 'why' } })
    expect(elapsed).toBeLessThan(100)
  })

  test('an Error reason gives String(reason)', async () => {
    const ac = new AbortController()
    const p = runOn(rt, 'for (;;) {}', { signal: ac.signal })
    await sleep(50)
    ac.abort(new TypeError('boom'))
    expect(await p).toEqual({ logs: [], error: { kind: 'abort', message: 'TypeError: boom' } })
  })

  test('a pre-aborted signal never runs the program', async () => {
    const ac = new AbortController()
    ac.abort('early')
    const r = await runOn(rt, 'console.log("ran"); return 1', { signal: ac.signal })
    expect(r).toEqual({ logs: [], error: { kind: 'abort', message: 'early' } })
  })

  test('one signal reused for 50 sequential runs keeps no listeners', async () => {
    const ac = new AbortController()
    for (let i = 0; i < 50; i++) {
      const program = i % 2 ? `return ${i}` : `await new Promise((r) => setTimeout(r, 1)); return ${i}`
      const r = await runOn(rt, program, { signal: ac.signal })
      expect(r).toEqual({ logs: [], value: i })
      expect(getEventListeners(ac.signal, 'abort').length).toBe(0)
    }
  })
})

describe('heap limit', () => {
  const small = make({ maxHeapMb: 16 })

  test('an uncaught allocation bomb ends worker-exit naming the limit', async () => {
    const r = await runOn(small, 'console.log("go"); const a = []; for (;;) a.push(new Array(10_000).fill(a.length))')
    expect(r.error?.kind).toBe('worker-exit')
    expect(r.error?.message).toContain('16')
    expect(r.logs).toEqual(['go'])
    expect(Object.keys(r).sort()).toEqual(['error', 'logs'])
  })

  test('catching the out-of-memory error still ends worker-exit', async () => {
    const r = await runOn(small, `
      try { const a = []; for (;;) a.push(new Array(10_000).fill(a.length)) } catch (e) { return 'survived' }
    `)
    expect(r.error?.kind).toBe('worker-exit')
    expect(r.value).toBeUndefined()
  })

  test('a healthy run on the same runtime then returns normally', async () => {
    const r = await runOn(small, 'return new Array(1000).fill(1).reduce((a, b) => a + b, 0)')
    expect(r).toEqual({ logs: [], value: 1000 })
  })
})

describe('deep recursion', () => {
  test('uncaught deep recursion is an exception starting RangeError', async () => {
    const r = await run('const f = (n: number): number => f(n + 1) + 1; return f(0)')
    expect(r.error?.kind).toBe('exception')
    expect(r.error?.message).toMatch(/^RangeError/)
  })

  test('caught deep recursion lets the program return normally', async () => {
    const r = await run(`
      const f = (n: number): number => f(n + 1) + 1
      try { f(0) } catch (e) { return [e instanceof RangeError, 'recovered'] }
    `)
    expect(r).toEqual({ logs: [], value: [true, 'recovered'] })
  })
})

describe('output ledger', () => {
  const capped = (maxOutputBytes: number) => make({ maxOutputBytes })

  test('return "€" fits at 7 bytes and fails at 6', async () => {
    expect(await runOn(capped(7), 'return "€"')).toEqual({ logs: [], value: '€' })
    expect(await runOn(capped(6), 'return "€"')).toEqual({ logs: [], error: cutOverCap('ou') })
  })

  test('a log plus a return fits at 11 bytes and fails at 10', async () => {
    const program = 'console.log("abc"); return "xy"'
    expect(await runOn(capped(11), program)).toEqual({ logs: ['abc'], value: 'xy' })
    expect(await runOn(capped(10), program)).toEqual({ logs: [], error: cutOverCap('outer ') })
  })

  test('a log plus a thrown string fits at 11 bytes and fails at 10', async () => {
    const program = 'console.log("abc"); throw "xy"'
    expect(await runOn(capped(11), program)).toEqual({ logs: ['abc'], error: { kind: 'exception', message: 'xy' } })
    expect(await runOn(capped(10), program)).toEqual({ logs: [], error: cutOverCap('outer ') })
  })

  test('a 1 MB error message fits the default cap and not a 1000-byte cap', async () => {
    const program = 'throw new Error("x".repeat(1_000_000))'
    const r = await run(program)
    expect(r.error?.kind).toBe('exception')
    expect(await runOn(capped(1000), program)).toEqual({ logs: [], error: overCap(1000) })
  })

  test('a 1000-char abort reason exceeds a 64-byte cap, pre-aborted and mid-run', async () => {
    const rt64 = capped(64)
    const pre = new AbortController()
    pre.abort('r'.repeat(1000))
    expect(await runOn(rt64, 'return 1', { signal: pre.signal })).toEqual({ logs: [], error: overCap(64) })
    const mid = new AbortController()
    const p = runOn(rt64, 'console.log("hi"); for (;;) {}', { signal: mid.signal })
    await sleep(50)
    mid.abort('r'.repeat(1000))
    expect(await p).toEqual({ logs: ['hi'], error: overCap(64) })
  })

  test('a syntax error under a 4-byte cap is output-limit with [] and an empty message', async () => {
    expect(await runOn(capped(4), 'return (')).toEqual({ logs: [], error: cutOverCap('') })
    expect(await runOn(capped(4), 'return 12')).toEqual({ logs: [], value: 12 })
    expect(await runOn(capped(4), 'return 123')).toEqual({ logs: [], error: cutOverCap('') })
    expect(await runOn(capped(4), 'console.log("a")')).toEqual({ logs: [], error: cutOverCap('') })
  })

  test('logs plus the message never exceed the cap, for every cap from 4 up', async () => {
    const programs = [
      'console.log("abc"); return "xy"',
      'console.log(`start-${`😀"\\\\\\n`.repeat(20)}`); return null',
      'for (let i = 0; i < 50; i++) console.log("spam line", i); throw new Error("e".repeat(500))',
    ]
    const caps = [4, 5, 6, 7, 9, 10, 11, 20, 33, 34, 35, 36, 40, 60, 96, 120]
    const rts = new Map(caps.map((cap) => [cap, capped(cap)]))
    for (const program of programs) {
      for (const cap of caps) {
        const r = await runOn(rts.get(cap)!, program)
        if (r.error?.kind !== 'output-limit') {
          expect(Buffer.byteLength(JSON.stringify(r.logs)) + Buffer.byteLength(JSON.stringify(r.value)), `${cap}: ${program}`).toBeLessThanOrEqual(cap)
          continue
        }
        expect(outputBytes(r), `${cap}: ${program}`).toBeLessThanOrEqual(cap)
        const full = `outer output exceeded ${cap} bytes`
        expect(full.startsWith(r.error!.message), `${cap}: ${program}`).toBe(true)
        // Logs are kept only beside the whole message; a cut message has nothing but [] beside it.
        if (r.logs.length > 0) expect(r.error!.message).toBe(full)
        if (r.error!.message !== full) expect(outputBytes(r)).toBe(cap)
      }
    }
  })

  test('the last kept log is cut at a code point, its escapes whole', async () => {
    // 52-byte cap: the message takes 32, the logs 20: [" ab 😀 \" \\ cdefgh "].
    const r = await runOn(capped(52), 'console.log("ab😀\\"\\\\" + "cdefghijklmnopqrstuvwxyz".repeat(3))')
    expect(r).toEqual({ logs: ['ab😀"\\cdefgh'], error: overCap(52) })
    // 35-byte cap: 3 bytes for the logs, not enough for [""].
    expect(await runOn(capped(35), 'console.log("😀".repeat(10))')).toEqual({ logs: [], error: overCap(35) })
  })

  test('exactly at the 64 MiB default boundary a result fits and one byte more fails', async () => {
    const fit = 67108864 - 2 - 2 // logs `[]` and the two quotes
    const ok = await run(`return 'a'.repeat(${fit})`)
    expect(ok.error).toBeUndefined()
    expect(typeof ok.value === 'string' && ok.value.length).toBe(fit)
    const over = await run(`return 'a'.repeat(${fit + 1})`)
    expect(over).toEqual({ logs: [], error: overCap(67108864) })
  })

  test('output-limit keeps the longest prefix of logs that fits with the message', async () => {
    // message JSON is 33 bytes; logs JSON gets 67: ["a*20","b*20","€*5"] = 1+22+1+22+1+17+1 = 65
    // (the ASCII run: 5 logs of 22 JSON bytes total 116 > 100; "c*17" fills the 67 exactly)
    const r = await runOn(
      capped(100),
      'for (const c of ["a", "b", "€", "d"]) console.log(c.repeat(20)); return 1',
    )
    expect(r).toEqual({ logs: ['a'.repeat(20), 'b'.repeat(20), '€'.repeat(5)], error: overCap(100) })
    const r2 = await runOn(capped(100), 'for (const c of ["a", "b", "c", "d", "e"]) console.log(c.repeat(20)); return 1')
    expect(r2).toEqual({ logs: ['a'.repeat(20), 'b'.repeat(20), 'c'.repeat(17)], error: overCap(100) })
  })

  test('a log flood ends output-limit quickly with bounded memory', async () => {
    const before = process.memoryUsage().rss
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
    const t0 = performance.now()
    const r = await runOn(capped(1 << 20), `for (;;) console.log('x'.repeat(100))`)
    const elapsed = performance.now() - t0
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().rss)
    expect(r.error).toEqual(overCap(1 << 20))
    expect(Buffer.byteLength(JSON.stringify(r.logs)) + Buffer.byteLength(JSON.stringify(r.error!.message))).toBeLessThanOrEqual(1 << 20)
    expect(r.logs.length).toBeGreaterThan(1000)
    expect(elapsed).toBeLessThan(5000)
    expect(peak - before).toBeLessThan(200 * 1024 * 1024)
  })
})

describe('dispose()', () => {
  test('dispose ends a hot run and an idle run, then run() rejects', async () => {
    const r = new CodeRuntime()
    const hot = r.run({ program: 'for (;;) {}', bindings: [] })
    const idle = r.run({ program: 'await tools.wait({}); return 1', bindings: waitTools })
    await sleep(100)
    const disposed = r.dispose()
    const aborted = { logs: [], error: { kind: 'abort', message: 'runtime disposed' } }
    expect(await hot).toEqual(aborted)
    expect(await idle).toEqual(aborted)
    await expect(disposed).resolves.toBeUndefined()
    await expect(r.run({ program: 'return 1', bindings: [] })).rejects.toThrow(/after disposal/)
  })

  test('a process that never calls dispose exits on its own after its run', () => {
    const entry = join(__dirname, '..', 'index.js')
    const script = `
      const { CodeRuntime } = require(${JSON.stringify(entry)})
      new CodeRuntime()
        .run({ program: 'await new Promise((r) => setTimeout(r, 200)); return 42', bindings: [] })
        .then((r) => console.log(JSON.stringify({ r, at: Date.now() })))
    `
    const t0 = Date.now()
    const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 })
    const end = Date.now()
    expect(out.stderr).toBe('')
    expect(out.status).toBe(0)
    const { r, at } = JSON.parse(out.stdout)
    expect(r).toEqual({ logs: [], value: 42 })
    expect(end - at).toBeLessThan(2000)
    expect(end - t0).toBeLessThan(5000)
  })
})
