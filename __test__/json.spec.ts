import { afterAll, describe, expect, test } from 'vitest'
import { runOn, runtime } from './helpers'

const rt = runtime()
afterAll(() => rt.dispose())
const run = (program: string) => runOn(rt, program)
const INVALID = { kind: 'invalid-output', message: 'program completion must be lossless JSON' }

describe('completion as lossless JSON', () => {
  test.each([
    ['undefined inside an array', 'return [undefined]'],
    ['undefined property', 'return { a: undefined }'],
    ['function', 'return () => 1'],
    ['symbol', "return Symbol('s')"],
    ['BigInt', 'return 10n'],
    ['NaN', 'return NaN'],
    ['Infinity', 'return Infinity'],
    ['-Infinity', 'return -Infinity'],
    ['-0', 'return -0'],
    ['nested -0', 'return { z: [-0] }'],
    ['sparse array', 'return [1, , 3]'],
    ['array with an extra property', 'const a: any = [1, 2]; a.extra = true; return a'],
    ['accessor property', 'return { get x() { return 1 } }'],
    ['symbol key', "return { [Symbol('k')]: 1 }"],
    ['non-enumerable property', "const o = {}; Object.defineProperty(o, 'h', { value: 1, enumerable: false }); return o"],
    ['class instance', 'class A { x = 1 }; return new A()'],
    ['Date', 'return new Date(0)'],
    ['Map', 'return new Map([[1, 2]])'],
    ['Set', 'return new Set([1])'],
    ['typed array', 'return new Uint8Array(4)'],
    ['ArrayBuffer', 'return new ArrayBuffer(4)'],
    ['RegExp', 'return /x/'],
    ['Error', "return new Error('e')"],
    ['Proxy of an object', 'return new Proxy({}, {})'],
    ['Proxy of an array', 'return new Proxy([], {})'],
    ['boxed primitive', 'return new String("s")'],
    ['cycle', 'const o: any = { a: {} }; o.a.back = o; return o'],
    ['array cycle', 'const a: any[] = []; a.push(a); return a'],
    ['Array subclass', 'class L extends Array {}; return L.from([1])'],
    ['object with a class prototype', 'return Object.create({ inherited: 1 })'],
    ['promise', 'return { p: Promise.resolve(1) }'],
  ])('%s is invalid-output', async (_, program) => {
    const r = await run(program)
    expect(r).toEqual({ logs: [], error: INVALID })
  })

  test('a getter on the completion is never called', async () => {
    const r = await run(`let called = false; const o = { get x() { called = true; return 1 } }; try { return o } finally { console.log('finally') }`)
    expect(r.error).toEqual(INVALID)
  })

  test('Proxy traps on the completion are never called', async () => {
    const r = await run(`
      // Resolving the async function looks up \`then\` (the language's own step); nothing else may run.
      const trap = () => { throw new Error('trap ran') }
      const get = (_: object, key: PropertyKey) => { if (key === 'then') return undefined; trap() }
      return new Proxy({}, { get, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap, has: trap })
    `)
    expect(r.error).toEqual(INVALID)
  })

  test('plain values cross exactly', async () => {
    const r = await run(`
      const nul = Object.create(null); nul.k = 'v'; nul.__proto__ = 'own'
      const shared = { s: 1 }
      return { n: [0, -1, 1.5, 1e21, 2 ** 53, 5e-324], s: ['', 'é€😀', '\\u2028', '"\\\\\\n\\t'], b: [true, false, null],
               nul, a: shared, b2: shared, nested: { deeper: { deepest: [] } }, '': 'empty key', 10: 'index key' }
    `)
    expect(r.value).toEqual({
      10: 'index key',
      n: [0, -1, 1.5, 1e21, 2 ** 53, 5e-324],
      s: ['', 'é€😀', '\u2028', '"\\\n\t'],
      b: [true, false, null],
      nul: { k: 'v', ['__proto__']: 'own' },
      a: { s: 1 },
      b2: { s: 1 },
      nested: { deeper: { deepest: [] } },
      '': 'empty key',
    })
    expect(Object.keys(r.value as object)[0]).toBe('10')
    expect(Object.prototype.hasOwnProperty.call((r.value as any).nul, '__proto__')).toBe(true)
  })

  test('lone surrogates survive', async () => {
    const r = await run(`return ['\\ud800', 'a\\udc00b']`)
    expect(r.value).toEqual(['\ud800', 'a\udc00b'])
  })

  test('a value nested 10,000 deep crosses', async () => {
    const r = await run(`let v: any = 'bottom'; for (let i = 0; i < 10000; i++) v = i % 2 ? [v] : { k: v }; return v`)
    let depth = 0
    let cur: any = r.value
    while (typeof cur === 'object') {
      cur = Array.isArray(cur) ? cur[0] : cur.k
      depth++
    }
    expect(depth).toBe(10000)
    expect(cur).toBe('bottom')
  })

  test('tampering with globals and prototypes does not change how the completion crosses', async () => {
    const r = await run(`
      const value = { list: [1, 2, { x: 'y' }], flag: true }
      Array.prototype.push = () => { throw new Error('push') }
      ;(Array as any).isArray = () => false
      Object.keys = () => { throw new Error('keys') }
      JSON.stringify = () => '"hijacked"'
      Object.prototype.toJSON = () => 'hijacked'
      Object.defineProperty(Object.prototype, 'x', { set() { throw new Error('setter') } })
      ;(globalThis as any).Object = undefined
      ;(globalThis as any).Array = undefined
      return value
    `)
    expect(r).toEqual({ logs: [], value: { list: [1, 2, { x: 'y' }], flag: true } })
  })
})
