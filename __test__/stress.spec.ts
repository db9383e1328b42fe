/**
 * Concurrency stress: 8 runtimes × 500 runs in flight at once, mixing every ending (value,
 * exception, compute and wall-clock timeouts, aborts at random times, heap deaths, output
 * and invalid-output failures, programs stuck forever, binding calls that resolve, reject,
 * throw, answer junk or answer after the run ended), with two runtimes disposed in the middle.
 * Every promise must settle exactly once with a result of the contract's shape and an
 * allowed kind, nothing may reject or go unhandled, and a fresh runtime works afterwards.
 */
import { expect, test } from 'vitest'
import type * as Api from '../index'
import { CodeRuntime } from './helpers'

const RUNTIMES = 8
const RUNS_EACH = 500
const KINDS = new Set(['exception', 'timeout', 'abort', 'worker-exit', 'invalid-output', 'output-limit'])

/** A small seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0 || 1
  return () => {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    return (s >>> 0) / 4294967296
  }
}

function pick(random: () => number): Ending {
  const total = ENDINGS.reduce((sum, e) => sum + (e.weight ?? 1), 0)
  let x = random() * total
  for (const e of ENDINGS) {
    x -= e.weight ?? 1
    if (x < 0) return e
  }
  return ENDINGS[0]
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Ending {
  name: string
  program: string
  /** `'value'` = no error; checked loosely when the run may be aborted or disposed. */
  expect: string[]
  value?: unknown
  /** Relative frequency (default 1): hot loops are rarer, they cost a whole budget of CPU. */
  weight?: number
}

const ENDINGS: Ending[] = [
  { name: 'value', program: 'return { ok: [1, "two", null] }', expect: ['value'], value: { ok: [1, 'two', null] } },
  { name: 'logs and value', program: 'console.log("a", { b: 1 }); await null; return 7', expect: ['value'], value: 7 },
  { name: 'exception', program: 'throw new Error("stress")', expect: ['exception'] },
  { name: 'compute timeout', program: 'for (;;) {}', expect: ['timeout'], weight: 0.25 },
  { name: 'compute timeout in finally', program: 'try { for (;;) {} } finally { for (;;) {} }', expect: ['timeout'], weight: 0.25 },
  { name: 'wall timeout', program: 'await new Promise((r) => setTimeout(r, 1e7))', expect: ['timeout'] },
  { name: 'wall timeout on a binding', program: 'return await tools.never(1)', expect: ['timeout'] },
  {
    name: 'heap death',
    program: 'const a: string[] = []; for (let i = 0; ; i++) a.push("x".repeat(1 << 16) + i)',
    expect: ['worker-exit'],
  },
  { name: 'output limit', program: 'for (;;) console.log("flood flood flood")', expect: ['output-limit'] },
  { name: 'invalid output', program: 'return new Map([[1, 2]])', expect: ['invalid-output'] },
  { name: 'stuck forever', program: 'await new Promise(() => {})', expect: ['exception'] },
  { name: 'binding resolves', program: 'return await tools.ok({ n: 1 })', expect: ['value'], value: { n: 1 } },
  {
    name: 'binding rejects',
    program: 'try { await tools.bad(1) } catch (e: any) { return [e instanceof ToolError, e.tool, e.message] }',
    expect: ['value'],
    value: [true, 'bad', 'refused'],
  },
  { name: 'binding throws', program: 'try { await tools.throws(1) } catch (e: any) { return e.message }', expect: ['value'], value: 'sync throw' },
  {
    name: 'binding answers junk',
    program: 'try { await tools.junk(1) } catch (e: any) { return e.message }',
    expect: ['value'],
    value: 'binding resolution must be lossless JSON',
  },
  { name: 'binding resolves late', program: 'return await tools.slow(3)', expect: ['value'], value: 3 },
  { name: 'answer after the end', program: 'tools.slow(1); tools.never(2); return "gone"', expect: ['value'], value: 'gone' },
  {
    name: 'many calls',
    program: 'const r = await Promise.all(Array.from({ length: 40 }, (_, i) => tools.ok(i))); return r.length',
    expect: ['value'],
    value: 40,
  },
  { name: 'hot loop with a call in flight', program: 'tools.slow(1); for (;;) {}', expect: ['timeout'], weight: 0.25 },
]

function checkShape(r: Api.CodeRunResult) {
  const keys = Object.keys(r).sort()
  expect([['logs'], ['logs', 'value'], ['error', 'logs']]).toContainEqual(keys)
  expect(Array.isArray(r.logs)).toBe(true)
  for (const l of r.logs) expect(typeof l).toBe('string')
  if (r.error) {
    expect(Object.keys(r.error).sort()).toEqual(['kind', 'message'])
    expect(KINDS.has(r.error.kind)).toBe(true)
    expect(typeof r.error.message).toBe('string')
  }
}

test('8 runtimes × 500 concurrent runs, every ending, random aborts, dispose in the middle', async () => {
  const random = rng(20261130)
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown) => unhandled.push(reason)
  process.on('unhandledRejection', onUnhandled)
  let hostCalls = 0
  const functions = {
    ok: async (a: unknown) => (hostCalls++, a),
    bad: async () => {
      hostCalls++
      throw new Error('refused')
    },
    throws: () => {
      hostCalls++
      throw new Error('sync throw')
    },
    junk: async () => (hostCalls++, new Date()),
    slow: async (a: unknown) => {
      hostCalls++
      await sleep(20 + Math.floor(random() * 300))
      return a
    },
    never: () => (hostCalls++, new Promise(() => {})),
  }
  const bindings = [{ global: 'tools', functions, errorClass: { name: 'ToolError', memberNameProperty: 'tool' } }]

  const runtimes = Array.from(
    { length: RUNTIMES },
    (_, i) =>
      new CodeRuntime({
        computeMs: 30 + 10 * (i % 3),
        maxWallMs: 8000 + 1000 * (i % 3),
        maxHeapMb: 8,
        maxOutputBytes: 1 << 16,
        threads: 1 + (i % 2),
      }),
  )
  const disposedMidway = new Set([2, 5])

  const total = RUNTIMES * RUNS_EACH
  const settledCount = new Array<number>(total).fill(0)
  const rejections: unknown[] = []
  const problems: string[] = []
  const seen: Record<string, number> = {}
  let wallTimeouts = 0
  let computeTimeouts = 0
  const natural: Record<string, number> = {}
  const pending: Promise<void>[] = []
  const aborters: Array<() => void> = []
  const started = Date.now()

  for (let i = 0; i < total; i++) {
    const rtIndex = i % RUNTIMES
    const ending = pick(random)
    const controller = new AbortController()
    const roll = random()
    const preAborted = roll < 0.02
    const abortLater = !preAborted && roll < 0.17
    if (preAborted) controller.abort('before start')
    const allowed = new Set(ending.expect)
    if (preAborted || abortLater) allowed.add('abort')
    if (disposedMidway.has(rtIndex)) allowed.add('abort')
    const p = runtimes[rtIndex].run({ program: ending.program, bindings, signal: controller.signal })
    if (abortLater) {
      const at = Math.floor(random() * 400)
      aborters.push(() => setTimeout(() => controller.abort(new Error(`random abort ${i}`)), at).unref())
    }
    pending.push(
      p.then(
        (r) => {
          settledCount[i]++
          try {
            checkShape(r)
          } catch (e) {
            problems.push(`${ending.name} #${i}: bad shape ${JSON.stringify(r).slice(0, 300)}`)
            return
          }
          const kind = r.error ? r.error.kind : 'value'
          seen[kind] = (seen[kind] ?? 0) + 1
          // 4,000 runs on two cores: any run may legitimately meet its wall-clock ceiling
          // (it never pauses) before it got enough CPU to end otherwise — binding calls
          // wait for a main thread that hundreds of busy pool threads compete with (its event
          // loop stalls for seconds here; see the hardening notes).
          // Setup (transform, engine creation) is charged to the compute budget too, and
          // threads contending for the kernel's memory locks can inflate it past a tight
          // budget; those are counted and bounded below instead of failing the run.
          if (kind === 'timeout' && !allowed.has(kind)) {
            if (r.error?.message.startsWith('wall-clock ceiling reached')) wallTimeouts++
            else computeTimeouts++
            return
          }
          if (allowed.has(kind) && !(kind === 'abort' && !ending.expect.includes('abort'))) {
            natural[ending.name] = (natural[ending.name] ?? 0) + 1
          }
          if (!allowed.has(kind)) {
            problems.push(`${ending.name} #${i} on runtime ${rtIndex}: got ${JSON.stringify(r).slice(0, 300)}`)
          } else if (kind === 'value' && ending.value !== undefined && JSON.stringify(r.value) !== JSON.stringify(ending.value)) {
            problems.push(`${ending.name} #${i}: value ${JSON.stringify(r.value)}`)
          } else if (kind === 'abort' && !preAborted && !abortLater && r.error?.message !== 'runtime disposed') {
            problems.push(`${ending.name} #${i}: unexpected abort ${r.error?.message}`)
          }
        },
        (e) => {
          settledCount[i]++
          rejections.push(e)
        },
      ),
    )
  }
  for (const a of aborters) a()

  // Dispose two runtimes while their runs are in flight.
  await sleep(250)
  const disposals = [...disposedMidway].map((i) => runtimes[i].dispose())
  await expect(runtimes[2].run({ program: 'return 1', bindings: [] })).rejects.toThrow(/after disposal/)

  await Promise.all(pending)
  await Promise.all(disposals)
  const elapsed = Date.now() - started
  await Promise.all(runtimes.map((r) => r.dispose()))
  // Late host answers (slow calls) land after their runs ended and after disposal.
  await sleep(400)
  process.off('unhandledRejection', onUnhandled)

  expect(problems.slice(0, 20)).toEqual([])
  expect(rejections).toEqual([])
  expect(unhandled).toEqual([])
  expect(settledCount.every((n) => n === 1)).toBe(true)
  // Seen here: 50–90 of 4,000 while other test files run beside this one. The bound catches a
  // systematic failure (every run timing out), not the load.
  expect(computeTimeouts, 'compute timeouts of runs that do not spin').toBeLessThan(total * 0.1)
  // Most endings really happened (not only aborts and wall-clock timeouts); which ones
  // starve depends on the machine's load, so this is a share, not every one.
  const reached = ENDINGS.filter((e) => (natural[e.name] ?? 0) > 0).length
  expect(reached, JSON.stringify(natural)).toBeGreaterThanOrEqual(ENDINGS.length - 4)
  expect(hostCalls).toBeGreaterThan(0)
  // The mix really produced every ending.
  for (const kind of ['value', ...KINDS]) expect(seen[kind] ?? 0, kind).toBeGreaterThan(0)
  console.log(`stress: ${total} runs settled in ${elapsed} ms, ${hostCalls} host calls, endings ${JSON.stringify(seen)}, ${wallTimeouts} wall-clock and ${computeTimeouts} compute timeouts under load`)

  const fresh = new CodeRuntime()
  try {
    expect(await fresh.run({ program: 'return 1', bindings: [] })).toEqual({ logs: [], value: 1 })
  } finally {
    await fresh.dispose()
  }
}, 120_000)
