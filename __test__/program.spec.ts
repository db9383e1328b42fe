import { afterAll, describe, expect, test } from 'vitest'
import { runOn, runtime } from './helpers'

const rt = runtime()
afterAll(() => rt.dispose())
const run = (program: string) => runOn(rt, program)

describe('TypeScript', () => {
  test('type annotations, interfaces, generics, as and satisfies are stripped', async () => {
    const r = await run(`
      interface Point { x: number; y: number }
      type Pair<T> = [T, T]
      function swap<T>(p: Pair<T>): Pair<T> { return [p[1], p[0]] }
      const p = { x: 1, y: 2 } satisfies Point
      const n = (p.x as number) + <number>p.y
      const q: Pair<string> = swap<string>(['a', 'b'])
      return { n, q }
    `)
    expect(r).toEqual({ logs: [], value: { n: 3, q: ['b', 'a'] } })
  })

  test('enums (numeric, string, reverse mapping) work', async () => {
    const r = await run(`
      enum Color { Red, Green = 5, Blue }
      enum Dir { Up = 'UP', Down = 'DOWN' }
      const enum K { A = 2 }
      return [Color.Red, Color.Blue, Color[5], Dir.Down, K.A]
    `)
    expect(r.value).toEqual([0, 6, 'Green', 'DOWN', 2])
  })

  test('namespaces work', async () => {
    const r = await run(`
      namespace Geometry { export const unit = 1; export function double(n: number) { return n * 2 } }
      namespace Geometry { export const extra = Geometry.double(Geometry.unit) }
      return [Geometry.unit, Geometry.double(4), Geometry.extra]
    `)
    expect(r.value).toEqual([1, 8, 2])
  })

  test('parameter properties and class features work', async () => {
    const r = await run(`
      abstract class Base { abstract area(): number; describe(): string { return 'area ' + this.area() } }
      class Rect extends Base {
        private static count: number = 0
        constructor(public readonly w: number, protected h: number = 2) { super(); Rect.count++ }
        area(): number { return this.w * this.h }
        static made(): number { return Rect.count }
      }
      const r = new Rect(3)
      return [r.w, r.area(), r.describe(), Rect.made()]
    `)
    expect(r.value).toEqual([3, 6, 'area 6', 1])
  })

  test('types are not checked', async () => {
    const r = await run(`const s: number = 'not a number' as any as number; return s`)
    expect(r.value).toBe('not a number')
  })
})

describe('the program body', () => {
  test('top-level await and return', async () => {
    const r = await run(`const a = await Promise.resolve(20); const b = await new Promise<number>(r => r(22)); return a + b`)
    expect(r.value).toBe(42)
  })

  test('runs in strict mode', async () => {
    const r = await run(`
      let assignToUndeclared = 'allowed'
      try { (0, eval)('1'); undeclaredVariable = 1 } catch (e) { assignToUndeclared = (e as Error).name }
      const thisInPlainCall = (function (this: unknown) { return this })()
      return [assignToUndeclared, thisInPlainCall === undefined]
    `)
    expect(r.value).toEqual(['ReferenceError', true])
  })

  test('a program cannot close the function it runs in', async () => {
    for (const program of ['}); globalThis.escaped = 1; (async () => {', '})(); (async () => {', '}\n}); (() => {']) {
      const r = await run(program)
      expect(r.error?.kind).toBe('exception')
      expect(r.error?.message).toMatch(/^SyntaxError: /)
    }
    const after = await run(`return typeof (globalThis as any).escaped`)
    expect(after.value).toBe('undefined')
  })

  test('a trailing line comment does not swallow the wrapper', async () => {
    expect(await run('return 7 // the answer')).toEqual({ logs: [], value: 7 })
    expect(await run('return 8 /* block */')).toEqual({ logs: [], value: 8 })
  })

  test('no value key when nothing is returned', async () => {
    const r = await run(`const x = 1`)
    expect(r).toEqual({ logs: [] })
    expect(Object.keys(r)).toEqual(['logs'])
    expect(Object.keys(await run('return undefined'))).toEqual(['logs'])
  })
})

describe('failures', () => {
  test('an Error throw is an exception with its stack', async () => {
    const r = await run(`const a = 1\nthrow new TypeError('bad input: ' + a)`)
    expect(Object.keys(r)).toEqual(['logs', 'error'])
    expect(r.error?.kind).toBe('exception')
    expect(r.error?.message).toMatch(/^TypeError: bad input: 1\n {4}at /)
    expect(r.error?.message).toContain('program.ts:2:')
    expect(r.error?.message).not.toContain('<eval>')
  })

  test('a custom Error subclass keeps its name', async () => {
    const r = await run(`class MyError extends Error { name = 'MyError' }\nthrow new MyError('nope')`)
    expect(r.error?.message).toMatch(/^MyError: nope/)
  })

  test('non-Error throws are String(value)', async () => {
    expect((await run(`throw 'just a string'`)).error).toEqual({ kind: 'exception', message: 'just a string' })
    expect((await run(`throw 404`)).error).toEqual({ kind: 'exception', message: '404' })
    expect((await run(`throw null`)).error).toEqual({ kind: 'exception', message: 'null' })
    expect((await run(`throw undefined`)).error).toEqual({ kind: 'exception', message: 'undefined' })
    expect((await run(`throw { toString() { return 'custom' } }`)).error).toEqual({ kind: 'exception', message: 'custom' })
    expect((await run(`throw {}`)).error).toEqual({ kind: 'exception', message: '[object Object]' })
    expect((await run(`throw Symbol('s')`)).error).toEqual({ kind: 'exception', message: 'Symbol(s)' })
  })

  test('a rejected await at top level is an exception', async () => {
    const r = await run(`await Promise.reject(new RangeError('late'))`)
    expect(r.error?.message).toMatch(/^RangeError: late/)
  })

  test('a syntax error names its line and column', async () => {
    const r = await run(`const a = 1\nconst b = 2\nconst c = ;\n`)
    expect(r.error?.kind).toBe('exception')
    expect(r.error?.message).toMatch(/^SyntaxError: .*\(3:11\)$/)
    const first = await run(`let = ;`)
    expect(first.error?.message).toMatch(/\(1:\d+\)$/)
  })

  test('logs printed before a throw are kept', async () => {
    const r = await run(`console.log('one'); console.log('two'); throw new Error('x')`)
    expect(r.logs).toEqual(['one', 'two'])
    expect(r.error?.kind).toBe('exception')
  })

  test('a promise nothing can settle fails at once', async () => {
    const started = Date.now()
    const r = await run(`await new Promise(() => {})`)
    expect(r.error?.kind).toBe('exception')
    expect(r.error?.message).toMatch(/nothing can settle/)
    expect(Date.now() - started).toBeLessThan(5000)
  })

  test('deep recursion is a catchable RangeError', async () => {
    const r = await run(`function f(n: number): number { return f(n + 1) + 1 }\ntry { f(0) } catch (e) { return String(e) }`)
    expect(r.value).toBe('RangeError: Maximum call stack size exceeded')
    const uncaught = await run(`function f(n: number): number { return f(n + 1) + 1 }\nf(0)`)
    expect(uncaught.error?.kind).toBe('exception')
    expect(uncaught.error?.message).toMatch(/^RangeError: Maximum call stack size exceeded/)
  })
})

describe('isolation', () => {
  test('globals and prototypes do not leak into later runs', async () => {
    await run(`(globalThis as any).leaked = 1; (Array.prototype as any).evil = () => 1; Object.prototype.toString = () => 'x'; (globalThis as any).JSON = null`)
    const r = await run(`return [typeof (globalThis as any).leaked, typeof ([] as any).evil, Object.prototype.toString.call([]), typeof JSON]`)
    expect(r.value).toEqual(['undefined', 'undefined', '[object Array]', 'object'])
  })

  test('100 concurrent runs are isolated from each other', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        run(`
          const before = (globalThis as any).slot
          ;(globalThis as any).slot = ${i}
          ;(Object.prototype as any).owner = ${i}
          await new Promise<void>(r => r())
          for (let k = 0; k < 1000; k++) {}
          return [before ?? null, (globalThis as any).slot, ({} as any).owner]
        `),
      ),
    )
    results.forEach((r, i) => expect(r).toEqual({ logs: [], value: [null, i, i] }))
  })
})

describe('threads', () => {
  test('the Node main thread keeps ticking while a program computes for a second', async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 10)
    const r = await run(`const end = Date.now() + 1000; let n = 0; while (Date.now() < end) n++; return n > 0`)
    clearInterval(timer)
    expect(r.value).toBe(true)
    expect(ticks).toBeGreaterThan(30)
  })
})
