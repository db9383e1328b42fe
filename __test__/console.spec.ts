import { Console } from 'node:console'
import { afterAll, describe, expect, test } from 'vitest'
import { runOn, runtime } from './helpers'

// Every corpus case (inspect-corpus.ts, console-corpus.ts) runs in the differential test
// against Node 24 (console-differential.spec.ts); these are the console's contract details,
// some compared with this Node's own Console where Node 20 and 24 agree.
const OPTIONS = { depth: 4, maxArrayLength: 100, maxStringLength: 10000 }
const rt = runtime()
afterAll(() => rt.dispose())

// The run's console is Node's Console with the console's inspect options and two-space
// groups, both streams into `logs`; Node's process warnings (label not found, ...) are
// entries `Warning: <text>`.
/** What Node's console prints for `source` (statements using `console`), one entry a call. */
function nodeConsole(source: string): string[] {
  const out: string[] = []
  const stream = { write: (s: string) => out.push(s.endsWith('\n') ? s.slice(0, -1) : s) > 0 }
  const con = new Console({
    stdout: stream as unknown as NodeJS.WritableStream,
    stderr: stream as unknown as NodeJS.WritableStream,
    ignoreErrors: false,
    colorMode: false,
    groupIndentation: 2,
    inspectOptions: { ...OPTIONS },
  })
  const emitWarning = process.emitWarning
  process.emitWarning = ((w: string | Error) => void out.push(`Warning: ${w}`)) as typeof process.emitWarning
  try {
    new Function('console', source)(con)
  } finally {
    process.emitWarning = emitWarning
  }
  return out
}

describe('console methods: contract details', () => {
  const logsOf = async (program: string, config?: Parameters<typeof runtime>[0]) => {
    if (!config) return runOn(rt, program)
    const own = runtime(config)
    try {
      return await runOn(own, program)
    } finally {
      await own.dispose()
    }
  }

  test('lone surrogates reach the host as the same code units, in logs and live through onLog', async () => {
    const program = `console.log('\\ud800 lone'); console.log('%s!', 'x\\udfffy'); console.log(['a\\ud83d']); console.log('\\ud83d\\ude00 pair')`
    const expected = ['\ud800 lone', 'x\udfffy!', "[ 'a\\ud83d' ]", '\ud83d\ude00 pair']
    expect((await logsOf(program)).logs).toEqual(expected)
    const live: string[] = []
    const own = runtime()
    try {
      await own.run({ program, bindings: [], onLog: (text) => void live.push(text) })
    } finally {
      await own.dispose()
    }
    expect(live).toEqual(expected)
  })

  test('durations use the monotonic clock, across awaits, in Node format', async () => {
    const r = await logsOf(`console.time('spin'); const t = Date.now(); while (Date.now() - t < 5) {}
      console.timeLog('spin', 'x'); console.time(); await new Promise((r) => setTimeout(r, 30)); console.timeEnd(); console.timeEnd('spin')`)
    expect(r.logs).toHaveLength(3)
    expect(r.logs[0]).toMatch(/^spin: \d+(\.\d{1,3})?ms x$/)
    expect(r.logs[1]).toMatch(/^default: \d+(\.\d{1,3})?ms$/)
    expect(r.logs[2]).toMatch(/^spin: \d+(\.\d{1,3})?ms$/)
    expect(Number.parseFloat(r.logs[0].slice(6))).toBeGreaterThanOrEqual(4)
    expect(Number.parseFloat(r.logs[1].slice(9))).toBeGreaterThanOrEqual(29)
  })

  test("custom inspect methods run in the program's realm (dir only when asked); colors and a program stylize never apply", async () => {
    const r = await logsOf(`const calls: any[] = []; let styled = false
      const o = { a: 1, [Symbol.for('nodejs.util.inspect.custom')](depth: any, options: any, inspect: any) {
        calls.push([typeof depth, Object.getPrototypeOf(options), typeof options.stylize, options.stylize('s', 'special'),
          Object.getPrototypeOf(inspect) === Function.prototype, inspect({ z: [1] }), this === o]); return 'X' } }
      console.dir(o, { colors: true, stylize(s: string) { styled = true; return s } } as any)
      const beforeAsked = calls.length
      console.dir(o, { customInspect: true, colors: true } as any)
      console.table([{ o }])
      return [beforeAsked, calls, styled]`)
    const call = ['number', null, 'function', 's', true, '{ z: [ 1 ] }', true]
    expect(r.value).toEqual([0, [call, call], false])
    expect(r.logs[0]).toBe('{\n  a: 1,\n  Symbol(nodejs.util.inspect.custom): [Function: [nodejs.util.inspect.custom]]\n}')
    expect(r.logs[1]).toBe('X')
    expect(r.logs[2]).toContain('│ 0       │ X │')
    expect(r.logs.join('')).not.toContain('\x1b')
  })

  test("table's properties must be an array: Node's TypeError, in the program's realm", async () => {
    const values = [`'a'`, '5', '{}', 'null', 'function f() {}', `Symbol('s')`, `'x'.repeat(40)`, 'Object.create(null)', '2n', 'new Map()']
    const r = await logsOf(`return [${values.join(', ')}].map((v) => {
      try { console.table([{ a: 1 }], v) } catch (e: any) {
        return [e instanceof TypeError, Object.getPrototypeOf(e) === TypeError.prototype, e.code, e.message, e.constructor === TypeError]
      }
    })`)
    const expected = values.map((v) => {
      try {
        nodeConsole(`console.table([{ a: 1 }], ${v})`)
      } catch (e) {
        return [true, true, (e as { code: string }).code, (e as Error).message, true]
      }
      return 'did not throw'
    })
    expect(r).toEqual({ logs: [], value: expected })
    const uncaught = await logsOf(`console.table([], 'cols' as any)`)
    expect(uncaught.error?.kind).toBe('exception')
    expect(uncaught.error?.message).toContain(`TypeError: The "properties" argument must be an instance of Array. Received type string ('cols')`)
  })

  test("labels convert with String: a symbol throws TypeError, a throwing toString throws the program's error", async () => {
    const r = await logsOf(`const out: string[] = []
      for (const f of [() => console.count(Symbol('s') as any), () => console.time(Symbol() as any), () => console.timeEnd(Symbol() as any)])
        try { f() } catch (e: any) { out.push(e instanceof TypeError ? 'TypeError' : String(e)) }
      const bad = { toString() { throw new RangeError('boom') } }
      for (const f of [() => console.count(bad as any), () => console.countReset(bad as any), () => console.time(bad as any), () => console.timeLog(bad as any), () => console.assert(false, bad)])
        try { f() } catch (e: any) { out.push(e instanceof RangeError ? e.message : 'other ' + e) }
      return out`)
    // Node 24's assert prints a first datum that is not a string as an argument (no String()).
    expect(r).toEqual({ logs: ['Assertion failed { toString: [Function: toString] }'], value: ['TypeError', 'TypeError', 'TypeError', 'boom', 'boom', 'boom', 'boom'] })
  })

  test('replacing or deleting console methods changes nothing for the others', async () => {
    const r = await logsOf(`const c = console
      console.log = () => { throw new Error('replaced log') }
      ;(console as any).table = null
      console.warn = undefined as any
      c.count(); c.group('g'); c.info({ a: 1 }); c.assert(false, 'assert'); c.groupEnd()
      const dir = c.dir; dir.call(null, [1])
      delete (globalThis as any).console
      c.error('still here')
      return typeof (globalThis as any).console`)
    expect(r).toEqual({ logs: ['default: 1', 'g', '  { a: 1 }', '  Assertion failed: assert', '[ 1 ]', 'still here'], value: 'undefined' })
  })

  test("a program's built-ins do not change how table, dir and group render", async () => {
    const source = `console.group('g'); console.table([{ a: 1, b: [1, 2] }, { c: 'x' }], ['a', 'c']); console.table(new Map([[1, 2]]))
      console.dir({ d: { e: [1, 2, 3] } }, { depth: 1 }); console.groupEnd(); console.assert(false, '%s!', 'fmt'); console.count('n')`
    const r = await logsOf(`Object.keys = () => ['evil']; Object.values = () => []; Array.isArray = () => false
      Array.prototype.map = function () { return ['evil'] }; Array.prototype.join = () => 'JOIN'; Array.prototype.push = () => 0
      String.prototype.repeat = () => ''; (String.prototype as any).padEnd = () => ''; Math.max = () => 0; Math.ceil = () => 0
      Object.defineProperty(Object.prototype, 'depth', { get() { return 0 }, configurable: true })
      Map.prototype[Symbol.iterator] = function* () { yield ['evil', 'map'] } as any
      JSON.stringify = () => 'evil'; Function.prototype.call = () => 'evil'
      ${source}`)
    const expected = nodeConsole(source.replace('new Map([[1, 2]])', "new Map([['evil', 'map']])"))
    expect(r).toEqual({ logs: expected })
  })

  test("a callable Proxy reaching the inspector realm's intrinsics cannot change how later logs render", async () => {
    // The engine builds an apply trap's argument list in the calling realm: the inspector's,
    // when it calls a program's toString, getter or comparator. Its intrinsics are frozen.
    const r = await logsOf(`const leaked: any[] = []
      const spy = new Proxy(function () {}, { apply(_t, _this, args) { leaked.push(args); return 'spy' } })
      console.log('%s', { toString: spy })
      const getter: any = {}; Object.defineProperty(getter, 'g', { get: spy, enumerable: true })
      console.dir(getter, { getters: true }); console.dir({ b: 1, a: 2 }, { sorted: spy })
      const attempts = ['Array.prototype.join = () => "EVIL"', 'Object.keys = () => []', 'globalThis.JSON = null',
        'Object.getPrototypeOf([].values()).next = null', 'Object.prototype.toString.call = null',
        'Object.defineProperty(Object.prototype, "depth", { get() { return 0 } })', 'Map.prototype.entries = null',
        'globalThis.fresh = 1', 'Object.setPrototypeOf(Array.prototype, null)']
      const results = attempts.map((code) => {
        for (const args of leaked) {
          if (args.constructor === Array) return 'not leaked'
          try { args.constructor.constructor('"use strict";' + code)(); return 'changed: ' + code } catch (e: any) {
            if (!/Cannot assign to read only property|object is not extensible|Cannot redefine property/.test(String(e))) return 'other: ' + String(e)
          }
        }
        return 'refused'
      })
      console.table([{ a: [1, 2], m: new Map([[1, { x: 'y' }]]) }]); console.dir({ x: { y: { z: 1 } } }, { depth: 1 }); console.log([1, 'two'].join(), { k: [3] })
      return results`)
    expect(r.value).toEqual(Array(9).fill('refused'))
    expect(r.logs.slice(0, 3)).toEqual(['spy', "{ g: [Getter: 'spy'] }", '{ b: 1, a: 2 }'])
    expect(r.logs.slice(3)).toEqual(
      nodeConsole(`console.table([{ a: [1, 2], m: new Map([[1, { x: 'y' }]]) }]); console.dir({ x: { y: { z: 1 } } }, { depth: 1 }); console.log([1, 'two'].join(), { k: [3] })`),
    )
  })

  test('100,000 distinct count and time labels keep at most 10,000 of each', async () => {
    const started = Date.now()
    const r = await logsOf(`for (let i = 0; i < 100000; i++) console.count('l' + i)
      console.countReset('l0'); console.count('fresh'); console.count('l1')
      for (let i = 0; i < 100000; i++) console.time('t' + i)
      console.timeEnd('t0'); console.time('late'); console.timeEnd('t99999')
      return 1`)
    expect(r.value).toBe(1)
    const logs = r.logs
    expect(logs).toHaveLength(100000 + 2 + 90000 + 1 + 1)
    expect(logs[9999]).toBe('l9999: 1')
    expect(logs[10000]).toBe("Warning: console.count() keeps at most 10000 labels; 'l10000' is not counted")
    expect(logs.slice(100000, 100002)).toEqual(['fresh: 1', 'l1: 2'])
    expect(logs[100002]).toBe("Warning: console.time() keeps at most 10000 labels; 't10000' is not timed")
    expect(logs.at(-2)).toMatch(/^t0: \d+(\.\d{1,3})?(ms|s)$/)
    expect(logs.at(-1)).toBe("Warning: No such label 't99999' for console.timeEnd()")
    expect(Date.now() - started).toBeLessThan(30_000)
  }, 60_000)

  test('a million nested groups cost bounded memory and end in output-limit', async () => {
    const r = await logsOf(`for (let i = 0; i < 1e6; i++) console.group(); console.log('a\\nb'); console.log('never'); return 1`, {
      maxOutputBytes: 100_000,
    })
    expect(r.error?.kind).toBe('output-limit')
    expect(r.logs).toHaveLength(1)
    expect(r.logs[0]).toMatch(/^ +$/)
  })

  test("what a program's getters, traps and callbacks throw inside table and dir reaches the program, as in Node", async () => {
    const source = `const out = []
      for (const f of [
        () => console.table(new Proxy([{ a: 1 }], { ownKeys() { throw new Error('trap') } })),
        () => console.dir({ get g() { throw new Error('getter') } }, { getters: true }),
        () => console.table([{ get a() { throw new Error('cell') } }]),
        () => console.dir({ a: 1, b: 2 }, { sorted: () => { throw new Error('sort') } }),
        () => console.table([{ a: 1 }], [{ toString() { throw new Error('key') } }]),
        () => console.table(new Set([1]), { get length() { throw new Error('never read') } }),
        () => console.dir({ a: 1 }, { get depth() { throw new Error('option') } }),
      ]) try { f() } catch (e) { out.push(e instanceof Error ? 'threw ' + e.message : 'threw ' + typeof e) }
      return out`
    const r = await logsOf(source)
    const node = nodeConsole(source.replace('return out', 'console.log(JSON.stringify(out))'))
    // A throwing getter under `getters: true` prints the error inspected (Node 24), with its
    // stack: only its head can be compared.
    expect(r.logs[0]).toMatch(/^{\n {2}g: \[Getter: <Inspection threw \(Error: getter\n {6}at get g \(program\.ts:/)
    expect(JSON.stringify(r.value)).toBe(node[1])
    expect(r.value).toContain('threw trap')
    const spin = await logsOf(`console.table([{ get a() { for (;;) {} } }])`, { computeMs: 300 })
    expect(spin.error?.kind).toBe('timeout')
  })
})
