/**
 * Hostile programs and hostile host functions. Every case runs, one after another, inside ONE
 * child Node process (so a native crash, an abort or a hang shows up as that child dying or
 * timing out instead of taking vitest down). After each case the same runtime must still
 * answer `return 1` with `{ logs: [], value: 1 }`, and be disposable.
 *
 * The runner prints `{ start }` before a case and one JSON line `{ name, kind, ok, … }` after
 * it, then `done`. If the child dies anyway, the case it was running is recorded as the crash
 * and a fresh child picks up at the next case (so every other row still reports), while the
 * "stays alive" test fails with the child's exit status and stderr tail.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CodeRuntimeConfig } from '../index'

type Kind = 'exception' | 'timeout' | 'abort' | 'worker-exit' | 'invalid-output' | 'output-limit' | 'value'

interface Case {
  name: string
  program: string
  /** Overrides of the tight defaults below. */
  config?: CodeRuntimeConfig
  /**
   * JavaScript source (evaluated in the runner) of an expression giving the `bindings` array.
   * In scope: `hit()` counts a host call, `state.last` (store the argument), `ns(functions,
   * extra?)` → `[{ global: 'tools', functions, ...extra }]`, `nest(n, leaf)`, `depth(v)`, `util`.
   */
  bindings?: string
  /** The result kind (`'value'` = no error), or every kind the SPEC allows for this program. */
  expect: Kind | Kind[]
  /** When the kind is `value`: the exact completion. */
  value?: unknown
  /** When set: the exact number of host calls made. */
  calls?: number
  /** When set: the exact logs. */
  logs?: string[]
  /** When set and the run failed: the error message must match. */
  message?: RegExp
  /** When set: the exact argument the host last received (`state.last`). */
  last?: unknown
  /**
   * JavaScript source of `(r, s) => boolean` run in the runner on the raw result; s = { ms,
   * cpu (process CPU ms over the run), rss (peak RSS growth in bytes), calls, state, util,
   * nest, depth }.
   */
  check?: string
}

const DEFAULTS: CodeRuntimeConfig = { computeMs: 300, maxWallMs: 3000, maxHeapMb: 32, maxOutputBytes: 1 << 20 }
/** Allocation bombs get compute to spare, so the heap limit is what ends them. */
const ALLOC: CodeRuntimeConfig = { computeMs: 5000 }

const ARGS_NOT_LOSSLESS = 'binding arguments must be lossless JSON'
const RESOLUTION_NOT_LOSSLESS = 'binding resolution must be lossless JSON'
const ECHO = 'ns({ echo: async (a) => { hit(); state.last = a; return a } })'
const DEPTH_OF = 'const depthOf = (v: any) => { let d = 0; while (Array.isArray(v)) { v = v[0]; d++ } return d }\n'
const NEST = (n: number | string) => `let deep: any = 1; for (let i = 0; i < ${n}; i++) deep = [deep]\n`
/** Catches the call's rejection and returns its message. */
const REJECTION = (call: string) => `try { await ${call}; return 'resolved' } catch (e: any) { return e.message }`

const cases: Case[] = []
const add = (...cs: Case[]) => cases.push(...cs)

// ─── allocation bombs: heap exhaustion is worker-exit, even when caught ───────────────────────
add(
  { name: 'alloc: string doubling with repeat', program: `let s = 'x'; for (;;) s = s.repeat(2)`, config: ALLOC, expect: 'worker-exit', message: /32/ },
  { name: 'alloc: string doubling, out-of-memory caught', program: `try { let s = 'x'; for (;;) s = s.repeat(2) } catch (e) { return 'survived' }`, config: ALLOC, expect: 'worker-exit' },
  { name: 'alloc: arrays pushing forever', program: `const a: number[][] = []; for (;;) a.push([a.length, a.length])`, config: ALLOC, expect: 'worker-exit' },
  { name: 'alloc: new ArrayBuffer(1e9)', program: `const b = new ArrayBuffer(1e9); return b.byteLength`, config: ALLOC, expect: 'worker-exit' },
  { name: 'alloc: new ArrayBuffer(1e9), caught', program: `try { new ArrayBuffer(1e9) } catch (e) { return String(e) } return 'allocated'`, config: ALLOC, expect: 'worker-exit' },
  { name: 'alloc: Map growth', program: `const m = new Map(); for (let i = 0; ; i++) m.set(i, { i })`, config: ALLOC, expect: 'worker-exit' },
  { name: 'alloc: object with ever more keys', program: `const o: any = {}; for (let i = 0; ; i++) o['key' + i] = i`, config: ALLOC, expect: 'worker-exit' },
  {
    name: 'alloc: deep object chain, a.next = {} 1e7 times',
    program: `let a: any = {}; const root = a; for (let i = 0; i < 1e7; i++) { a.next = {}; a = a.next } return 1`,
    config: ALLOC,
    expect: 'worker-exit',
  },
  { name: 'alloc: Array.from({ length: 1e9 })', program: `return Array.from({ length: 1e9 }).length`, config: ALLOC, expect: 'worker-exit' },
  // Slow-path property writes: which limit comes first depends on the engine's speed.
  { name: 'alloc: new Array(2**32 - 1).fill(0)', program: `return new Array(2 ** 32 - 1).fill(0).length`, config: ALLOC, expect: ['worker-exit', 'timeout'] },
  // Quadratic copying may make this a compute timeout before the heap fills.
  { name: 'alloc: string concatenation loop', program: `let s = ''; for (let i = 0; ; i++) s += 'chunk-' + i + ';'`, config: { computeMs: 2000 }, expect: ['worker-exit', 'timeout'] },
  {
    name: 'alloc: a 100 MB binding resolution into a 32 MB heap',
    program: `const s = await tools.big({}); return s.length`,
    bindings: `ns({ big: async () => { hit(); return 'x'.repeat(1e8) } })`,
    config: ALLOC,
    expect: 'worker-exit',
    calls: 1,
  },
)

// ─── recursion bombs: deep recursion is an ordinary RangeError ────────────────────────────────
add(
  { name: 'recursion: plain, uncaught', program: `const f = (n: number): number => f(n + 1) + 1; return f(0)`, expect: 'exception', message: /^RangeError/ },
  { name: 'recursion: through a getter', program: `const o = { get x(): any { return this.x } }; return o.x`, expect: 'exception', message: /^RangeError/ },
  { name: 'recursion: through toString via String(o)', program: `const o = { toString(): string { return String(this) } }; return String(o)`, expect: 'exception', message: /^RangeError/ },
  { name: 'recursion: through Symbol.toPrimitive', program: `const o: any = { [Symbol.toPrimitive]() { return +o } }; return +o`, expect: 'exception', message: /^RangeError/ },
  {
    name: 'recursion: through a Proxy get trap',
    program: `const p: any = new Proxy({}, { get(t, k, r) { return r[k] } }); return p.x`,
    expect: 'exception',
    message: /^RangeError/,
  },
  {
    name: 'recursion: JSON.stringify with a toJSON that stringifies itself',
    program: `const o = { toJSON(): string { return JSON.stringify(this) } }; return JSON.stringify(o)`,
    expect: 'exception',
    message: /^RangeError/,
  },
  {
    name: 'recursion: JSON.stringify with a toJSON returning a fresh wrapper of itself',
    program: `const o: any = {}; o.toJSON = () => ({ again: o }); return JSON.stringify(o)`,
    config: { computeMs: 3000 },
    expect: 'exception',
    message: /^RangeError/,
  },
  {
    name: 'recursion: JSON.stringify of a 100,000-deep array',
    program: NEST(100_000) + `return JSON.stringify(deep).length`,
    config: { computeMs: 3000 },
    expect: ['exception', 'value'],
    check: `(r) => r.error ? /RangeError/.test(r.error.message) : r.value === 200001`,
  },
  {
    name: 'recursion: JSON.parse of a 100,000-deep array',
    program: DEPTH_OF + `return depthOf(JSON.parse('['.repeat(100000) + ']'.repeat(100000)))`,
    expect: ['exception', 'value'],
    check: `(r) => r.error ? /RangeError/.test(r.error.message) : r.value === 100000`,
  },
  {
    name: 'recursion: join of an array containing itself',
    program: `const a: any[] = [1]; a.push(a); return a.join(',')`,
    expect: ['exception', 'value'],
  },
  {
    name: 'recursion: String() of a 100,000-deep array',
    program: NEST(100_000) + `return String(deep)`,
    expect: ['exception', 'value'],
    check: `(r) => r.error ? /RangeError/.test(r.error.message) : r.value === '1'`,
  },
  {
    name: 'recursion: deep async recursion (synchronous part)',
    program: `const f = async (n: number): Promise<number> => 1 + (await f(n + 1)); return await f(0)`,
    expect: 'exception',
    message: /^RangeError/,
  },
  {
    name: 'recursion: async recursion through await (memory grows)',
    program: `const f = async (n: number): Promise<number> => { await null; return 1 + (await f(n + 1)) }; return await f(0)`,
    expect: ['timeout', 'worker-exit'],
  },
  {
    name: 'recursion: a chain of 100,000 Proxies',
    program: `let p: any = { x: 1 }; for (let i = 0; i < 100000; i++) p = new Proxy(p, {}); return p.x`,
    expect: 'exception',
    message: /^RangeError/,
  },
  {
    name: 'recursion: flat(Infinity) on a 100,000-deep array',
    program: NEST(100_000) + `return deep.flat(Infinity)`,
    expect: ['exception', 'value'],
    check: `(r) => r.error ? /RangeError/.test(r.error.message) : JSON.stringify(r.value) === '[1]'`,
  },
  {
    name: 'recursion: structuredClone of a 100,000-deep array',
    program: DEPTH_OF + NEST(100_000) + `return depthOf(structuredClone(deep))`,
    config: { computeMs: 3000, maxHeapMb: 256 },
    expect: ['exception', 'value'],
    check: `(r) => r.error ? /RangeError/.test(r.error.message) : r.value === 100000`,
  },
  {
    name: 'recursion: structuredClone of a cyclic object',
    program: `const a: any = { n: 1 }; a.self = a; a.list = [a]; const b = structuredClone(a); return [b.self === b, b.list[0] === b, b !== a]`,
    expect: 'value',
    value: [true, true, true],
  },
  {
    name: 'recursion: 50 caught stack overflows, then a normal return',
    program: `const f = (n: number): number => f(n + 1) + 1; let n = 0; for (let i = 0; i < 50; i++) { try { f(0) } catch (e) { if (e instanceof RangeError) n++ } } return n`,
    config: { computeMs: 5000 },
    expect: 'value',
    value: 50,
  },
  {
    // Each overflow used to allow as many frames again as the last (the engine's error hooks
    // moved QuickJS's stack top down to the deepest frame) until the thread's real stack
    // overflowed: the host died of SIGSEGV after about 60.
    name: 'recursion: 120 caught stack overflows stop at the same depth, the host survives',
    program: `let d = 0; const f = (): void => { d++; f() }; const depths = new Set<number>(); for (let i = 0; i < 120; i++) { d = 0; try { f() } catch {} depths.add(d) } return depths.size`,
    config: { computeMs: 20000, maxWallMs: 20000 },
    expect: 'value',
    value: 1,
  },
)

// ─── prototype and global tampering: crossing the boundary must not change ────────────────────
const V = { list: [1, 'two', [3, { deep: null }]], ok: true, n: -1.5, big: 1e300, s: '€\u0000"\ud800', 0: 'zero', '': 'empty' }
const V_SRC = `(${JSON.stringify(V)})`
const BOOM = `const boom: any = () => { throw new Error('tampered builtin ran') }\n`
const tampers: Array<[string, string]> = [
  [
    'every Array.prototype method, Array.isArray, Object.keys/entries/values/assign, JSON replaced',
    BOOM +
      `const names = Object.getOwnPropertyNames(Array.prototype)
      for (let i = 0; i < names.length; i++) if (names[i] !== 'length' && names[i] !== 'constructor') (Array.prototype as any)[names[i]] = boom
      Array.isArray = boom; Object.keys = boom; Object.entries = boom; Object.values = boom; Object.assign = boom
      JSON.stringify = boom; JSON.parse = boom`,
  ],
  [
    'accessors on Object.prototype and Array.prototype for numeric and named keys',
    `const trap = { get() { throw new Error('getter ran') }, set(v: any) { throw new Error('setter ran') }, configurable: true }
      for (const k of ['0', '1', '2', '3', 'a', 'list', 'ok', 'n', 's', 'big', 'deep', '', 'length', 'value', 'constructor']) {
        try { Object.defineProperty(Object.prototype, k, trap) } catch {}
        try { Object.defineProperty(Array.prototype, k, trap) } catch {}
      }`,
  ],
  [
    'Symbol.iterator everywhere and %ArrayIteratorPrototype%.next replaced',
    BOOM +
      `const arrayIteratorProto = Object.getPrototypeOf([][Symbol.iterator]())
      arrayIteratorProto.next = boom
      ;(Array.prototype as any)[Symbol.iterator] = boom; (String.prototype as any)[Symbol.iterator] = boom
      ;(Map.prototype as any)[Symbol.iterator] = boom; (Set.prototype as any)[Symbol.iterator] = boom
      ;(Object.prototype as any)[Symbol.iterator] = boom`,
  ],
  [
    'Promise.prototype.then/catch/finally and Promise statics replaced',
    BOOM +
      `Promise.prototype.then = boom; Promise.prototype.catch = boom; Promise.prototype.finally = boom
      Promise.resolve = boom; Promise.reject = boom; Promise.all = boom; Promise.race = boom`,
  ],
  ['globalThis.Promise = null', `;(globalThis as any).Promise = null`],
  [
    'Function.prototype.call/apply/bind, Reflect and Object reflection replaced',
    BOOM +
      `Function.prototype.call = boom; Function.prototype.apply = boom; Function.prototype.bind = boom
      for (const k of ['apply', 'construct', 'ownKeys', 'getPrototypeOf', 'get', 'set', 'defineProperty', 'has']) (Reflect as any)[k] = boom
      for (const k of ['getPrototypeOf', 'getOwnPropertyNames', 'getOwnPropertyDescriptor', 'getOwnPropertyDescriptors', 'defineProperty', 'create', 'setPrototypeOf', 'freeze', 'isFrozen']) (Object as any)[k] = boom`,
  ],
  [
    'core globals (Object, Array, JSON, Symbol, Error, String, …) set to undefined',
    `const g: any = globalThis
      for (const k of ['Object', 'Array', 'JSON', 'Symbol', 'Error', 'TypeError', 'RangeError', 'String', 'Number', 'Boolean', 'Reflect', 'Proxy', 'Map', 'Set', 'WeakMap', 'Math', 'Date', 'BigInt', 'Function', 'Uint8Array', 'ArrayBuffer', 'globalThis']) g[k] = undefined`,
  ],
]
for (const [what, snippet] of tampers) {
  add(
    { name: `tamper before returning: ${what}`, program: `${snippet}\nreturn ${V_SRC}`, expect: 'value', value: V, logs: [] },
    {
      name: `tamper before calling a binding: ${what}`,
      program: `${snippet}\nconst r = await tools.echo(${V_SRC})\nreturn r`,
      bindings: ECHO,
      expect: 'value',
      value: V,
      last: V,
      calls: 1,
      logs: [],
    },
  )
}
const PROTO_KEYS = '{"constructor":1,"toString":"x","__proto__":{"a":[1]},"valueOf":null,"hasOwnProperty":false}'
const FREEZE = `Object.defineProperty(Object.prototype, '__proto__', { get() { throw new Error('__proto__ getter ran') }, set(v) { throw new Error('__proto__ setter ran') } })
  for (const p of [Object.prototype, Array.prototype, Function.prototype, Promise.prototype, Error.prototype]) Object.freeze(p)\n`
const OWN_PROTO_CHECK = `(r, s) => r.value !== undefined && Object.getPrototypeOf(r.value) === Object.prototype && Object.getOwnPropertyNames(r.value).includes('__proto__') && (s.state.last === undefined || Object.getOwnPropertyNames(s.state.last).includes('__proto__'))`
add(
  {
    name: 'tamper before returning: prototypes frozen, __proto__ accessor replaced, keys constructor/toString/__proto__',
    program: FREEZE + `return JSON.parse('${PROTO_KEYS}')`,
    expect: 'value',
    value: JSON.parse(PROTO_KEYS),
    check: OWN_PROTO_CHECK,
  },
  {
    name: 'tamper before calling a binding: prototypes frozen, __proto__ accessor replaced, keys constructor/toString/__proto__',
    program: `const v = JSON.parse('${PROTO_KEYS}')\n` + FREEZE + `const r = await tools.echo(v); return r`,
    bindings: ECHO,
    expect: 'value',
    value: JSON.parse(PROTO_KEYS),
    last: JSON.parse(PROTO_KEYS),
    calls: 1,
    check: OWN_PROTO_CHECK,
  },
  {
    name: 'tamper before calling a binding: Object.prototype.then and Array.prototype.then installed',
    program: `;(Object.prototype as any).then = function (res: any) { res('hijacked') }
      ;(Array.prototype as any).then = function (res: any) { res('hijacked') }
      const a = await tools.echo(${V_SRC})
      const b = await tools.echo([1, 2])
      delete (Object.prototype as any).then; delete (Array.prototype as any).then
      return [a, b]`,
    bindings: ECHO,
    expect: 'value',
    value: [V, [1, 2]],
    calls: 2,
  },
  {
    name: 'tamper before calling a binding: Object.prototype.then getter that loops forever',
    program: `Object.defineProperty(Object.prototype, 'then', { get() { for (;;) {} }, configurable: true })
      const a = await tools.echo(${V_SRC})
      delete (Object.prototype as any).then
      return a`,
    bindings: ECHO,
    expect: 'value',
    value: V,
    calls: 1,
  },
  {
    name: 'tamper an error class: prototype setters on toolName/message, global removed',
    program: `const C: any = ToolCallError
      Object.defineProperty(C.prototype, 'toolName', { get() { return 'evil' }, set(v) { throw new Error('toolName setter ran') } })
      Object.defineProperty(C.prototype, 'message', { get() { return 'evil' }, set(v) { throw new Error('message setter ran') } })
      ;(globalThis as any).ToolCallError = undefined
      try { await tools.fail({}) } catch (e: any) { return [e instanceof C, e.name, e.toolName, e.message] }`,
    bindings: `ns({ fail: async () => { hit(); throw new Error('nope') } }, { errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' } })`,
    expect: 'value',
    value: [true, 'ToolCallError', 'fail', 'nope'],
    calls: 1,
  },
)

// ─── exotic completions: invalid-output, and no program code runs while reading them ──────────
// A completion goes through the async wrapper's promise resolution, which (by the language)
// reads `then` on it: the traps answer `then` quietly, so any other trap that runs is the runtime's doing.
const LOUD_TRAPS = `{ get(t: any, k: any) { if (k !== 'then') console.log('trap get'); return Reflect.get(t, k) },
  ownKeys(t: any) { console.log('trap ownKeys'); return Reflect.ownKeys(t) },
  getOwnPropertyDescriptor(t: any, k: any) { console.log('trap gopd'); return Reflect.getOwnPropertyDescriptor(t, k) },
  getPrototypeOf(t: any) { console.log('trap getPrototypeOf'); return Reflect.getPrototypeOf(t) },
  has(t: any, k: any) { console.log('trap has'); return Reflect.has(t, k) } }`
// Logging hostile values must complete without running program code and leave the run
// healthy; the exact text (Node's util.inspect) is pinned by the console spec.
const ONE_LOG = `(r) => r.logs.length === 1`
const LOOPING_TRAPS = `{ get(t: any, k: any) { if (k === 'then') return undefined; for (;;) {} }, ownKeys() { for (;;) {} }, getOwnPropertyDescriptor() { for (;;) {} }, getPrototypeOf() { for (;;) {} }, has() { for (;;) {} } }`
const INVALID = (name: string, program: string, extra: Partial<Case> = {}): Case => ({
  name: `completion: ${name}`,
  program,
  expect: 'invalid-output',
  message: /^program completion must be lossless JSON$/,
  logs: [],
  ...extra,
})
add(
  INVALID('a Proxy with logging traps', `return new Proxy({ a: 1 }, ${LOUD_TRAPS})`),
  INVALID('a Proxy of an array with looping traps', `return new Proxy([1, 2, 3], ${LOOPING_TRAPS})`),
  INVALID('a Proxy nested inside plain data', `return { a: [1, { b: new Proxy({}, ${LOUD_TRAPS}) }] }`),
  INVALID('a plain-looking object whose prototype is a looping Proxy', `return Object.setPrototypeOf({ a: 1 }, new Proxy({}, ${LOOPING_TRAPS}))`),
  INVALID('an object with a logging getter', `return { get a() { console.log('getter ran'); return 1 } }`),
  INVALID('an object with a looping getter', `return { b: 1, get a() { for (;;) {} } }`),
  INVALID('new Error("x")', `return new Error('x')`),
  INVALID('a sparse array, a[1e9] = 1', `const a: any[] = []; a[1e9] = 1; return a`),
  INVALID('new Array(1e9), all holes', `return new Array(1e9)`),
  INVALID('a Uint8Array', `return new Uint8Array([1, 2, 3])`),
  INVALID('a Date with toJSON', `return new Date(0)`),
  INVALID('a Map', `return new Map([[1, 2]])`),
  INVALID('a class instance', `class P { x = 1 } return new P()`),
  INVALID('an array with an extra own property', `const a: any = [1, 2]; a.extra = 3; return a`),
  INVALID('an Array subclass with a looping Symbol.species', `class A extends Array { static get [Symbol.species](): any { for (;;) {} } } return A.from([1, 2])`),
  INVALID('a symbol key with a looping Symbol.toPrimitive', `return { a: 1, [Symbol.toPrimitive]() { for (;;) {} } }`),
  INVALID('a non-enumerable own property', `return Object.defineProperty({ a: 1 }, 'hidden', { value: 2, enumerable: false })`),
  INVALID('a direct cycle', `const a: any = { n: 1 }; a.self = a; return a`),
  INVALID('a cycle 10,000 deep', `const root: any = {}; let a = root; for (let i = 0; i < 10000; i++) { a.next = {}; a = a.next } a.back = root; return root`),
  INVALID('-0 nested in an array', `return [1, -0]`),
  INVALID('Infinity', `return 1e308 * 10`),
  INVALID('NaN nested in an object', `return { a: NaN }`),
  INVALID('a function nested in an object', `return { a: { f() {} } }`),
  INVALID('undefined nested in an array', `return [1, undefined]`),
  INVALID('a BigInt', `return 1n`),
)
add(
  {
    name: 'completion: Array[Symbol.species] getter loops, plain [1, 2, 3] still crosses',
    program: `Object.defineProperty(Array, Symbol.species, { get() { console.log('species'); for (;;) {} } }); return [1, 2, 3]`,
    expect: 'value',
    value: [1, 2, 3],
    logs: [],
  },
  {
    name: 'completion: Object.prototype getters for a/length/toJSON are not read',
    program: `for (const k of ['a', 'length', 'toJSON']) Object.defineProperty(Object.prototype, k, { get() { console.log('getter ' + k); for (;;) {} }, configurable: true })
      return { b: 1, list: [1] }`,
    expect: 'value',
    value: { b: 1, list: [1] },
    logs: [],
  },
  // Resolving the wrapper's promise with it reads `then`, which throws a TypeError: the program threw.
  { name: 'completion: a revoked Proxy (the language throws reading then)', program: `const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy`, expect: 'exception', message: /^TypeError/, logs: [] },
  { name: 'completion: a null-prototype object', program: `const o = Object.create(null); o.a = 1; o.b = [null]; return o`, expect: 'value', value: { a: 1, b: [null] } },
  { name: 'completion: lone surrogates cross exactly', program: `return ['\\ud800', 'x\\udc00y', '\\udc00\\ud800']`, expect: 'value', value: ['\ud800', 'x\udc00y', '\udc00\ud800'] },
  { name: 'completion: an own __proto__ key', program: `return JSON.parse('{"__proto__": {"x": 1}, "a": 2}')`, expect: 'value', value: JSON.parse('{"__proto__": {"x": 1}, "a": 2}'), check: OWN_PROTO_CHECK },
  {
    name: 'completion: a 100,000-deep array crosses',
    program: NEST(100_000) + `return deep`,
    expect: 'value',
    check: `(r, s) => s.depth(r.value) === 100000`,
  },
  {
    name: 'completion: a 100,000-deep object crosses',
    program: `let o: any = null; for (let i = 0; i < 100000; i++) o = { o }; return o`,
    expect: 'value',
    check: `(r) => { let d = 0, v = r.value; while (v !== null) { v = v.o; d++ } return d === 100000 }`,
  },
  {
    name: 'completion: a 1,000,000-deep array is over 1 MiB',
    program: NEST(1_000_000) + `return deep`,
    config: { maxHeapMb: 256, computeMs: 5000 },
    expect: 'output-limit',
    message: /^outer output exceeded 1048576 bytes$/,
  },
  {
    name: 'completion: a 50 MB string under maxOutputBytes 1 MiB',
    program: `return 'x'.repeat(50_000_000)`,
    // 'x'.repeat(5e7) alone takes ~200 ms of QuickJS compute.
    config: { maxHeapMb: 256, computeMs: 3000 },
    expect: 'output-limit',
    message: /^outer output exceeded 1048576 bytes$/,
    logs: [],
  },
  { name: 'completion: an object of 100,000 keys is over 1 MiB', program: `const o: any = {}; for (let i = 0; i < 1e5; i++) o['k' + i] = i; return o`, config: { maxHeapMb: 128, computeMs: 3000 }, expect: 'output-limit' },
  { name: 'completion: a thrown 2 MB string is over 1 MiB', program: `throw 'y'.repeat(2_000_000)`, expect: 'output-limit', logs: [] },
)

// ─── Proxies and exotic values as binding arguments: rejected, host never called ──────────────
add(
  { name: 'binding argument: a Proxy', program: REJECTION(`tools.echo(new Proxy({}, ${LOUD_TRAPS}))`), bindings: ECHO, expect: 'value', value: ARGS_NOT_LOSSLESS, calls: 0, logs: [] },
  { name: 'binding argument: a Proxy with looping traps', program: REJECTION(`tools.echo(new Proxy([1], ${LOOPING_TRAPS}))`), bindings: ECHO, expect: 'value', value: ARGS_NOT_LOSSLESS, calls: 0 },
  { name: 'binding argument: an object with a logging getter', program: REJECTION(`tools.echo({ get a() { console.log('getter ran'); return 1 } })`), bindings: ECHO, expect: 'value', value: ARGS_NOT_LOSSLESS, calls: 0, logs: [] },
  {
    name: 'binding argument: a chain of 100,000 Proxies',
    program: `let p: any = {}; for (let i = 0; i < 100000; i++) p = new Proxy(p, {});\n` + REJECTION(`tools.echo({ a: p })`),
    bindings: ECHO,
    expect: 'value',
    value: ARGS_NOT_LOSSLESS,
    calls: 0,
  },
  {
    name: 'binding argument: 16 kinds of non-lossless values all reject',
    program: `const bad: any[] = [undefined, [undefined], NaN, -0, [1e308 * 10], [, 1], new Date(0), new Map(), new Uint8Array(2),
        new (class K {})(), { [Symbol('s')]: 1 }, Object.defineProperty({}, 'h', { value: 1 }), (() => { const c: any = {}; c.c = c; return c })(),
        { f() {} }, 10n, (() => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy })()]
      const out: any[] = []
      for (const b of bad) { try { await tools.echo(b); out.push('resolved') } catch (e: any) { out.push(e instanceof Error && e.message) } }
      return out.every((m) => m === ${JSON.stringify(ARGS_NOT_LOSSLESS)}) ? out.length : out`,
    bindings: ECHO,
    expect: 'value',
    value: 16,
    calls: 0,
  },
  {
    name: 'binding argument: a 10,000-deep array crosses both ways',
    program: DEPTH_OF + NEST(10_000) + `return depthOf(await tools.echo(deep))`,
    bindings: ECHO,
    expect: 'value',
    value: 10_000,
    calls: 1,
    check: `(r, s) => s.depth(s.state.last) === 10000`,
  },
  {
    name: 'binding argument: a 100,000-deep array crosses both ways',
    program: DEPTH_OF + NEST(100_000) + `return depthOf(await tools.echo(deep))`,
    bindings: ECHO,
    expect: 'value',
    value: 100_000,
    calls: 1,
    check: `(r, s) => s.depth(s.state.last) === 100000`,
  },
)

// ─── binding abuse: what the host functions do ────────────────────────────────────────────────
add(
  {
    name: 'bindings: 100,000 calls fired without awaiting, then return',
    program: `for (let i = 0; i < 100000; i++) tools.echo({ i }); return 'fired'`,
    bindings: ECHO,
    // 100,000 pending calls (promises, arguments) outgrow a 32 MB heap legitimately.
    config: { computeMs: 5000, maxHeapMb: 256 },
    expect: 'value',
    value: 'fired',
  },
  {
    name: 'bindings: Promise.all of 10,000 calls',
    program: `const rs = await Promise.all(Array.from({ length: 10000 }, (_, i) => tools.echo(i))); return rs.reduce((a: number, b: number) => a + b, 0)`,
    bindings: ECHO,
    config: { computeMs: 3000 },
    expect: 'value',
    value: 49_995_000,
    calls: 10_000,
  },
  { name: 'bindings: host returns a cyclic object', program: REJECTION('tools.f({})'), bindings: `ns({ f: async () => { hit(); const o = { a: 1 }; o.self = o; return o } })`, expect: 'value', value: RESOLUTION_NOT_LOSSLESS, calls: 1 },
  { name: 'bindings: host returns a 10 MB string', program: `return (await tools.f({})).length`, bindings: `ns({ f: async () => { hit(); return 'x'.repeat(1e7) } })`, config: { maxHeapMb: 128 }, expect: 'value', value: 1e7, calls: 1 },
  { name: 'bindings: host returns a 10,000-deep value', program: DEPTH_OF + `return depthOf(await tools.f({}))`, bindings: `ns({ f: async () => { hit(); return nest(10000) } })`, expect: 'value', value: 10_000 },
  { name: 'bindings: host returns a 100,000-deep value', program: DEPTH_OF + `return depthOf(await tools.f({}))`, bindings: `ns({ f: async () => { hit(); return nest(100000) } })`, expect: 'value', value: 100_000 },
  {
    name: 'bindings: a 100,000-deep resolution does not spoil sibling calls answered with it',
    program:
      DEPTH_OF +
      `const [a, b, c] = await Promise.allSettled([tools.deep({}), tools.small({}), tools.small({})])
      return [a.status, a.status === 'fulfilled' ? depthOf(a.value) : a.reason.message, b.status, b.status === 'fulfilled' ? b.value : b.reason.message, c.status]`,
    bindings: `ns({ deep: async () => { hit(); return nest(100000) }, small: async () => { hit(); return 1 } })`,
    expect: 'value',
    value: ['fulfilled', 100_000, 'fulfilled', 1, 'fulfilled'],
    calls: 3,
  },
  {
    name: 'bindings: host throws a non-Error synchronously',
    program: `try { await tools.f({}) } catch (e: any) { return [e.message, e instanceof Error] }`,
    bindings: `ns({ f: () => { hit(); throw 42 } })`,
    expect: 'value',
    value: ['42', true],
  },
  { name: 'bindings: host returns undefined synchronously', program: REJECTION('tools.f({})'), bindings: `ns({ f: () => { hit(); return undefined } })`, expect: 'value', value: RESOLUTION_NOT_LOSSLESS, calls: 1 },
  { name: 'bindings: host resolves undefined', program: REJECTION('tools.f({})'), bindings: `ns({ f: async () => { hit() } })`, expect: 'value', value: RESOLUTION_NOT_LOSSLESS },
  {
    name: 'bindings: host resolves an object with a getter (getter not run)',
    program: REJECTION('tools.f({})'),
    bindings: `ns({ f: async () => { hit(); return { get a() { state.getterRan = true; return 1 } } } })`,
    expect: 'value',
    value: RESOLUTION_NOT_LOSSLESS,
    check: `(r, s) => !s.state.getterRan`,
  },
  {
    name: 'bindings: host resolves BigInt, NaN, a function, a Symbol, a Map, a Node Proxy',
    program: `const out: any[] = []
      for (const m of ['big', 'nan', 'fn', 'sym', 'map', 'proxy']) { try { await tools[m]({}); out.push('resolved ' + m) } catch (e: any) { out.push(e.message) } }
      return out.every((m) => m === ${JSON.stringify(RESOLUTION_NOT_LOSSLESS)}) ? out.length : out`,
    bindings: `ns({ big: async () => 1n, nan: async () => NaN, fn: async () => () => 1, sym: async () => Symbol('s'), map: async () => new Map(), proxy: async () => new Proxy({}, { ownKeys() { throw new Error('host trap') } }) })`,
    expect: 'value',
    value: 6,
  },
  {
    name: 'bindings: host rejects with an object whose toString throws',
    program: `try { await tools.f({}); return 'resolved' } catch (e: any) { return [e instanceof Error, typeof e.message] }`,
    bindings: `ns({ f: () => { hit(); return Promise.reject({ toString() { throw new Error('host toString') } }) } })`,
    expect: 'value',
    value: [true, 'string'],
  },
  {
    name: 'bindings: host rejects with a null-prototype object',
    program: `try { await tools.f({}); return 'resolved' } catch (e: any) { return [e instanceof Error, typeof e.message] }`,
    bindings: `ns({ f: () => Promise.reject(Object.create(null)) })`,
    expect: 'value',
    value: [true, 'string'],
  },
  {
    name: 'bindings: host rejects with a Proxy whose traps throw',
    program: `try { await tools.f({}); return 'resolved' } catch (e: any) { return [e instanceof Error, typeof e.message] }`,
    bindings: `ns({ f: () => Promise.reject(new Proxy(new Error('p'), { get() { throw new Error('trap') }, getPrototypeOf() { throw new Error('trap') }, has() { throw new Error('trap') } })) })`,
    expect: 'value',
    value: [true, 'string'],
  },
  {
    name: 'bindings: host throws an Error whose message getter throws',
    program: `try { await tools.f({}); return 'resolved' } catch (e: any) { return [e instanceof Error, typeof e.message] }`,
    bindings: `ns({ f: () => { const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw new Error('getter') } }); throw e } })`,
    expect: 'value',
    value: [true, 'string'],
  },
  { name: 'bindings: host throws an Error with a 10 MB message', program: `try { await tools.f({}) } catch (e: any) { return e.message.length }`, bindings: `ns({ f: () => { throw new Error('m'.repeat(1e7)) } })`, config: { maxHeapMb: 128 }, expect: 'value', value: 1e7 },
  {
    name: 'bindings: a resolution arriving after the run settled (and after dispose) is dropped',
    program: `tools.slow({}); tools.slowFail({}); return 'early'`,
    bindings: `ns({ slow: () => { hit(); return new Promise((r) => setTimeout(() => r('late'), 300)) }, slowFail: () => { hit(); return new Promise((_, j) => setTimeout(() => j(new Error('late')), 300)) } })`,
    expect: 'value',
    value: 'early',
  },
)

// ─── promise, microtask and timer storms ──────────────────────────────────────────────────────
add(
  { name: 'async: await new Promise(() => {}) fails at once', program: `await new Promise(() => {})`, expect: 'exception', check: `(r, s) => s.ms < 1500` },
  { name: 'async: a thenable that never calls back fails at once', program: `return { then() {} }`, expect: 'exception', check: `(r, s) => s.ms < 1500` },
  { name: 'async: unhandled rejections, then a value', program: `Promise.reject(new Error('x')); Promise.reject(1); (async () => { throw 2 })(); return 'fine'`, expect: 'value', value: 'fine' },
  { name: 'async: queueMicrotask loop forever', program: `const f = () => queueMicrotask(f); f(); await new Promise(() => {})`, expect: 'timeout' },
  { name: 'async: a thenable resolving with itself', program: `const t: any = { then(res: any) { res(t) } }; return await t`, expect: 'timeout' },
  { name: 'async: a promise resolved with itself', program: `let res: any; const p = new Promise((r) => (res = r)); res(p); return await p`, expect: 'exception', message: /TypeError/ },
  { name: 'async: a thenable completion', program: `return { then(r: any) { r(5) } }`, expect: 'value', value: 5 },
  { name: 'async: a thenable completion whose then loops', program: `return { then() { for (;;) {} } }`, expect: 'timeout' },
  {
    name: 'async: a Promise subclass with a looping Symbol.species',
    program: `class P<T> extends Promise<T> { static get [Symbol.species](): any { for (;;) {} } } return await P.resolve(1)`,
    expect: 'timeout',
  },
  { name: 'async: 1e6 resolved promises with .then in a loop', program: `for (let i = 0; i < 1e6; i++) Promise.resolve(i).then(() => {}); return 1`, expect: ['value', 'timeout', 'worker-exit'] },
  { name: 'async: 1e6 promises created and dropped', program: `for (let i = 0; i < 1e6; i++) Promise.resolve(i); return 1`, config: { computeMs: 5000 }, expect: 'value', value: 1 },
  // 100,000 pending timers hold ~32 MB outside QuickJS's heap, which counts against maxHeapMb.
  { name: 'async: 100,000 setTimeout(f, 0), then return', program: `for (let i = 0; i < 100000; i++) setTimeout(() => {}, 0); return 1`, config: { computeMs: 3000, maxHeapMb: 96 }, expect: 'value', value: 1 },
  {
    name: 'async: 100,000 setTimeout(f, 0), all awaited',
    program: `let n = 0; await new Promise<void>((r) => { for (let i = 0; i < 100000; i++) setTimeout(() => { if (++n === 100000) r() }, 0) }); return n`,
    config: { computeMs: 3000, maxHeapMb: 96 },
    expect: 'value',
    value: 100_000,
  },
  { name: 'async: setInterval(f, 0) never cleared, awaiting forever', program: `let n = 0; setInterval(() => { n++ }, 0); await new Promise(() => {})`, expect: 'timeout' },
  { name: 'async: setInterval(f, 0) never cleared, then return', program: `setInterval(() => {}, 0); return 'left running'`, expect: 'value', value: 'left running' },
  // Blocking the engine thread: must end as a timeout (or be refused), never hang the run or dispose().
  { name: 'async: Atomics.wait without a timeout', program: `const i32 = new Int32Array(new SharedArrayBuffer(16)); return Atomics.wait(i32, 0, 0)`, expect: ['timeout', 'exception'] },
  { name: 'async: Atomics.wait for 1e9 ms', program: `const i32 = new Int32Array(new SharedArrayBuffer(16)); return Atomics.wait(i32, 0, 0, 1e9)`, expect: ['timeout', 'exception'] },
)

// ─── interrupts that the program tries to swallow ────────────────────────────────────────────
add(
  { name: 'interrupt: throw inside finally', program: `try { for (;;) {} } finally { throw new Error('escape') }`, expect: 'timeout' },
  { name: 'interrupt: return inside finally', program: `try { for (;;) {} } finally { return 'escaped' }`, expect: 'timeout' },
  { name: 'interrupt: catch-all returning', program: `try { for (;;) {} } catch (e) { return 'caught' }`, expect: 'timeout' },
  { name: 'interrupt: continue inside finally', program: `for (;;) { try { for (;;) {} } catch {} finally { continue } }`, expect: 'timeout' },
  { name: 'interrupt: await then return inside finally', program: `try { await null; for (;;) {} } finally { await null; return 1 }`, expect: 'timeout' },
  { name: 'interrupt: catastrophic regex /(a+)+b/', program: `return /(a+)+b/.test('a'.repeat(40))`, expect: 'timeout' },
  { name: 'interrupt: catastrophic regex in replace, caught', program: `try { return 'a'.repeat(40).replace(/(a|aa)+$/g, '') + 'x'.repeat(0) + /(x+x+)+y/.exec('x'.repeat(60)) } catch { return 'caught' }`, expect: 'timeout' },
)

// ─── thrown values that fight back ────────────────────────────────────────────────────────────
add(
  { name: 'throw: an object whose toString throws', program: `throw { toString() { throw new Error('inner') } }`, expect: 'exception' },
  { name: 'throw: an object whose toString recurses', program: `const o: any = { toString() { return String(o) } }; throw o`, expect: 'exception' },
  { name: 'throw: an object whose Symbol.toPrimitive loops forever', program: `throw { [Symbol.toPrimitive]() { for (;;) {} } }`, expect: 'timeout' },
  { name: 'throw: a Symbol', program: `throw Symbol('s')`, expect: 'exception', message: /^Symbol\(s\)$/ },
  { name: 'throw: undefined', program: `throw undefined`, expect: 'exception', message: /^undefined$/ },
  // Reading the stack/name runs program code: a timeout, or a fallback message that ran none.
  { name: 'throw: an Error whose stack accessor loops', program: `const e = new Error('x'); Object.defineProperty(e, 'stack', { get() { for (;;) {} } }); throw e`, expect: ['exception', 'timeout'] },
  { name: 'throw: an Error subclass whose name getter loops', program: `class E extends Error { get name(): string { for (;;) {} } } throw new E('x')`, expect: ['exception', 'timeout'] },
  { name: 'throw: a Proxy of an Error with looping traps', program: `throw new Proxy(new Error('x'), ${LOOPING_TRAPS})`, expect: ['exception', 'timeout'] },
  { name: 'throw: an Error with a 10,000-long cause chain', program: `let e: any = new Error('root'); for (let i = 0; i < 10000; i++) e = new Error('e' + i, { cause: e }); throw e`, expect: 'exception', message: /^Error: e9999/ },
)

// ─── reaching for the host ────────────────────────────────────────────────────────────────────
add(
  { name: 'host: static import', program: `import fs from 'fs'\nreturn typeof fs`, expect: 'exception' },
  { name: 'host: dynamic import()', program: `const m = await import('fs'); return typeof m`, expect: 'exception' },
  { name: 'host: dynamic import() from new Function', program: `const m = await new Function('return import("child_process")')(); return typeof m`, expect: 'exception' },
  { name: 'host: import.meta', program: `return typeof import.meta`, expect: 'exception' },
  { name: 'host: require', program: `return require('fs')`, expect: 'exception', message: /ReferenceError/ },
  { name: 'host: process.env', program: `return process.env`, expect: 'exception', message: /ReferenceError/ },
  { name: 'host: constructor.constructor("return process")()', program: `return (globalThis as any).constructor.constructor('return process')()`, expect: 'exception', message: /ReferenceError/ },
  { name: 'host: eval("process")', program: `return eval('process')`, expect: 'exception', message: /ReferenceError/ },
  {
    name: 'host: Function("return this")() is the sandbox global',
    program: `const g = Function('return this')(); return [g === globalThis, typeof g.process, typeof g.require, typeof g.Buffer]`,
    expect: 'value',
    value: [true, 'undefined', 'undefined', 'undefined'],
  },
  {
    name: 'host: no host or engine-shell globals',
    program: `const g: any = globalThis
      return ['process', 'require', 'module', 'exports', 'Buffer', 'global', '__dirname', '__filename', 'fetch', 'XMLHttpRequest', 'WebSocket',
        'Deno', 'Bun', 'std', 'os', 'scriptArgs', 'print', 'load', 'read', 'readline', 'quit', 'gc', 'setImmediate', 'Worker']
        .filter((k) => k in g || typeof g[k] !== 'undefined')`,
    expect: 'value',
    value: [],
  },
  { name: 'host: closing the wrapper early', program: `})(); (globalThis as any).escaped = 1; (async () => {`, expect: 'exception' },
)

// ─── hostile source text ──────────────────────────────────────────────────────────────────────
const HUGE_LINES = 1_750_000 // ≈ 10.5 MB of `x+=1;` lines
add(
  {
    name: 'source: a 10 MB program of x+=1; lines',
    program: 'let x = 0\n' + 'x+=1;\n'.repeat(HUGE_LINES) + 'return x',
    config: { computeMs: 20_000, maxWallMs: 30_000, maxHeapMb: 512 },
    expect: ['value', 'worker-exit', 'timeout', 'exception'],
    check: `(r) => r.error !== undefined || r.value === ${HUGE_LINES}`,
  },
  { name: 'source: 100,000 nested brackets', program: DEPTH_OF + `return depthOf(${'['.repeat(100_000)}${']'.repeat(100_000)})`, expect: ['exception', 'value'], check: `(r) => r.error !== undefined || r.value === 100000` },
  { name: 'source: 100,000 nested parens', program: `return ${'('.repeat(100_000)}1${')'.repeat(100_000)}`, expect: ['exception', 'value'], check: `(r) => r.error !== undefined || r.value === 1` },
  { name: 'source: 100,000 nested blocks', program: `${'{'.repeat(100_000)}${'}'.repeat(100_000)} return 1`, expect: ['exception', 'value'], check: `(r) => r.error !== undefined || r.value === 1` },
  { name: 'source: 100,000 nested object literals', program: `return ${'{a:'.repeat(100_000)}1${'}'.repeat(100_000)} && 1`, expect: ['exception', 'value'], check: `(r) => r.error !== undefined || r.value === 1` },
  { name: 'source: 100,000 nested arrow functions', program: `const f = ${'() => '.repeat(100_000)}1; return typeof f`, expect: ['exception', 'value'], check: `(r) => r.error !== undefined || r.value === 'function'` },
  { name: 'source: 100,000 nested TypeScript generic types', program: `type T = ${'Array<'.repeat(100_000)}number${'>'.repeat(100_000)}\nreturn 1`, expect: ['exception', 'value'], check: `(r) => r.error !== undefined || r.value === 1` },
  { name: 'source: 100,000 chained unary operators', program: `return ${'!'.repeat(100_000)}0`, expect: ['exception', 'value'], check: `(r) => r.error !== undefined || r.value === false` },
  { name: 'source: 100,000-term binary chain', program: `return ${'1+'.repeat(100_000)}1`, expect: ['exception', 'value'], check: `(r) => r.error !== undefined || r.value === 100001` },
)

// ─── log floods and logging hostile values ────────────────────────────────────────────────────
add(
  {
    name: 'logs: console.log of a 10 MB string',
    program: `console.log('z'.repeat(1e7)); return 1`,
    config: { maxHeapMb: 128 },
    expect: 'output-limit',
    check: `(r) => r.logs.length <= 1 && r.logs.every((l) => /^z*$/.test(l))`,
  },
  { name: 'logs: console.log in an infinite loop', program: `for (let i = 0; ; i++) console.log('line', i)`, config: { computeMs: 5000 }, expect: 'output-limit', message: /^outer output exceeded 1048576 bytes$/ },
  { name: 'logs: console.error of big objects in an infinite loop', program: `const o = { a: 'q'.repeat(9000), b: [1, 2, 3] }; for (;;) console.error(o)`, config: { computeMs: 5000 }, expect: 'output-limit' },
  { name: 'logs: a cyclic object', program: `const a: any = { name: 'a' }; a.self = a; console.log(a); return 1`, expect: 'value', value: 1, check: ONE_LOG },
  {
    name: 'logs: a Proxy with counting traps runs no trap',
    program: `let n = 0; const t = (f: any) => (...a: any[]) => (n++, f(...a))
      const p = new Proxy({ a: 1 }, { get: t(Reflect.get), ownKeys: t(Reflect.ownKeys), getOwnPropertyDescriptor: t(Reflect.getOwnPropertyDescriptor), getPrototypeOf: t(Reflect.getPrototypeOf), has: t(Reflect.has) })
      console.log(p); return n`,
    expect: 'value',
    value: 0,
    check: ONE_LOG,
  },
  { name: 'logs: a Proxy with looping traps', program: `console.log(new Proxy({}, ${LOOPING_TRAPS})); return 'logged'`, expect: 'value', value: 'logged', check: ONE_LOG },
  { name: 'logs: a revoked Proxy', program: `const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); console.log(proxy); return 1`, expect: 'value', value: 1, check: ONE_LOG },
  { name: 'logs: an object with a looping getter', program: `console.log({ get a() { for (;;) {} } }); return 1`, expect: 'value', value: 1, logs: ['{ a: [Getter] }'] },
  {
    name: 'logs: a 100,000-deep array',
    program: NEST(100_000) + `console.log(deep); return 1`,
    expect: 'value',
    value: 1,
    check: ONE_LOG,
  },
  { name: 'logs: a sparse array a[1e9] = 1', program: `const a: any[] = []; a[1e9] = 1; console.log(a); return 1`, expect: 'value', value: 1, check: ONE_LOG },
  {
    name: 'logs: a Map of 1,000,000 entries',
    program: `const m = new Map(); for (let i = 0; i < 1e6; i++) m.set(i, i); console.log(m); return 1`,
    config: { maxHeapMb: 256, computeMs: 5000 },
    expect: 'value',
    value: 1,
    check: ONE_LOG,
  },
  { name: 'logs: an Error with a 10,000-long cause chain', program: `let e: any = new Error('root'); for (let i = 0; i < 10000; i++) e = new Error('e' + i, { cause: e }); console.log(e); return 1`, config: { computeMs: 3000 }, expect: 'value', value: 1, check: `(r) => r.logs.length === 1` },
)

// ─── long native operations: each stops within its compute budget ─────────────────────────────
// Every case runs one native operation the program sizes (or a loop of slow ones) under a
// 200 ms budget. `s.cpu` is the process's CPU time over the run: an operation that does not
// poll runs on for seconds past the budget (or forever), one that polls stops within a few ms;
// the margin leaves room for the runner's own work on a loaded machine.
const NATIVE: CodeRuntimeConfig = { computeMs: 200, maxWallMs: 10_000, maxHeapMb: 512 }
const ON_TIME = `(r, s) => s.cpu < 200 + 450`
const native = (name: string, program: string, config: CodeRuntimeConfig = {}): Case => ({
  name: `native op: ${name}`,
  program,
  config: { ...NATIVE, ...config },
  expect: 'timeout',
  message: /^compute budget exhausted \(200ms busy\)$/,
  check: ON_TIME,
})
add(
  native('toString of a 1,048,000-bit BigInt, in a loop', `const a = (1n << 1048000n) - 1n; for (;;) a.toString()`),
  native('toString(7) of a 600,000-bit BigInt', `const a = (1n << 600000n) - 1n; for (;;) a.toString(7)`),
  native('1,500 toStrings of a 30,000-bit BigInt', `const a = (1n << 30000n) - 1n; for (let i = 0; i < 1e6; i++) a.toString()`),
  native('square of a 500,000-bit BigInt, in a loop', `const a = (1n << 500000n) - 1n; for (;;) a * a`),
  native('product of two 500,000-bit BigInts, once', `const a = (1n << 500000n) - 1n, b = a - 2n; return String(a * b).length`),
  native('division of a 1,000,000-bit BigInt by a 500,000-bit one', `const a = (1n << 1000000n) - 1n, b = (1n << 500000n) - 3n; for (;;) a / b`),
  native('remainder of a 1,000,000-bit BigInt', `const a = (1n << 1000000n) - 1n, b = (1n << 500000n) - 3n; for (;;) a % b`),
  native('BigInt ** building a million bits', `for (let i = 0; ; i++) 3n ** BigInt(600000 + i)`),
  native('BigInt() of 300,000 decimal digits', `const s = '9'.repeat(300000); for (;;) BigInt(s)`),
  native('Array.prototype.sort on { length: 2**32 - 1 }', `Array.prototype.sort.call({ length: 2 ** 32 - 1 })`),
  native('Array.prototype.sort of 1e6 strings, in a loop', `const a = Array.from({ length: 1e6 }, (_, i) => String(i * 7919 % 1e6)); for (;;) a.slice().sort()`),
  native('Array.prototype.reverse on { length: 2**53 - 1 }', `Array.prototype.reverse.call({ length: 2 ** 53 - 1 })`),
  native('Array.prototype.copyWithin on { length: 2**53 - 1 }', `Array.prototype.copyWithin.call({ length: 2 ** 53 - 1 }, 0, 1)`),
  native('Array.prototype.fill on { length: 2**53 - 1 }', `Array.prototype.fill.call({ length: 2 ** 53 - 1 }, 0)`),
  native('Array.prototype.join on { length: 2**32 - 1 }', `return Array.prototype.join.call({ length: 2 ** 32 - 1 }).length`),
  native('Array.prototype.lastIndexOf on { length: 2**53 - 1 }', `return Array.prototype.lastIndexOf.call({ length: 2 ** 53 - 1 }, 1)`),
  native('Array.prototype.indexOf on { length: 2**53 - 1 }', `return Array.prototype.indexOf.call({ length: 2 ** 53 - 1 }, 1)`),
  native('Array.prototype.slice of { length: 2**32 - 1 }', `return Array.prototype.slice.call({ length: 2 ** 32 - 1 }).length`),
  native('Array.prototype.concat of a spreadable { length: 2**53 - 2 }', `return [].concat({ length: 2 ** 53 - 2, [Symbol.isConcatSpreadable]: true }).length`),
  native('Array.prototype.flat of { length: 2**53 - 1 }', `return Array.prototype.flat.call({ length: 2 ** 53 - 1 }).length`),
  native('Array.from({ length: 1e8 })', `return Array.from({ length: 1e8 }).length`, { maxHeapMb: 1024 }),
  native('Array.from of a 1e7-element iterator, in a loop', `const a = new Array(1e7).fill(0); for (;;) Array.from(a.values())`),
  native('Uint8Array.from({ length: 2e8 })', `return Uint8Array.from({ length: 2e8 }).length`, { maxHeapMb: 1024 }),
  native('crypto.subtle.digest of 512 MiB', `const d = await crypto.subtle.digest('SHA-512', new Uint8Array(2 ** 29)); return d.byteLength`, { maxHeapMb: 1024 }),
  native('TextDecoder of 256 MiB of four-byte gb18030', `const b = new Uint8Array(2 ** 28); new Uint32Array(b.buffer).fill(0x30813081)
    return new TextDecoder('gb18030', { fatal: true }).decode(b).length`, { maxHeapMb: 2048 }),
  native('indexOf of a 200,000-character near-miss', `const s = 'a'.repeat(4e5), t = 'a'.repeat(2e5) + 'b'; for (;;) s.indexOf(t)`),
  native('lastIndexOf of a 200,000-character near-miss', `const s = 'a'.repeat(4e5), t = 'b' + 'a'.repeat(2e5); for (;;) s.lastIndexOf(t)`),
  native('includes of a 200,000-character near-miss', `const s = 'a'.repeat(4e5), t = 'a'.repeat(2e5) + 'b'; for (;;) s.includes(t)`),
  native('split on a 200,000-character near-miss', `const s = 'a'.repeat(4e5), t = 'a'.repeat(2e5) + 'b'; for (;;) s.split(t)`),
  native('replaceAll of a 200,000-character near-miss', `const s = 'a'.repeat(4e5), t = 'a'.repeat(2e5) + 'b'; for (;;) s.replaceAll(t, '')`),
  native('replace of a 200,000-character near-miss in a two-byte string', `const s = 'é'.repeat(4e5), t = 'é'.repeat(2e5) + 'b'; for (;;) s.replace(t, '')`),
  native('normalize NFD of 100,000 reordered marks', `const s = 'a' + '\u0301\u0316'.repeat(1e5); for (;;) s.normalize('NFD')`),
  native('normalize NFC of 100,000 reordered marks', `const s = 'a' + '\u0301\u0316'.repeat(1e5); for (;;) s.normalize('NFC')`),
  native('normalize NFKC of 2e7 characters', `const s = 'ﬁ\u0301'.repeat(1e7); for (;;) s.normalize('NFKC')`, { maxHeapMb: 2048 }),
  native('repeat to 400 MB', `for (;;) 'a'.repeat(4e8)`, { maxHeapMb: 2048 }),
  native('repeat of a two-character string to 400 MB', `for (;;) 'ab'.repeat(2e8)`, { maxHeapMb: 2048 }),
  native('padStart to 400 MB', `for (;;) ''.padStart(4e8, 'ab')`, { maxHeapMb: 2048 }),
  native('padEnd to 400 MB with one character', `for (;;) ''.padEnd(4e8, 'z')`, { maxHeapMb: 2048 }),
  native('join of 1e7 strings, in a loop', `const a = new Array(1e7).fill('xy'); for (;;) a.join('--')`, { maxHeapMb: 2048 }),
  native('JSON.stringify of 5e6 strings, in a loop', `const a = new Array(5e6).fill('x'); for (;;) JSON.stringify(a)`, { maxHeapMb: 2048 }),
  native('JSON.parse of 5e6 numbers, in a loop', `const s = '[' + '1,'.repeat(5e6) + '1]'; for (;;) JSON.parse(s)`, { maxHeapMb: 2048 }),
  native('new Function of a 25 MB body, in a loop', `const src = 'x+=1;'.repeat(5e6); for (;;) new Function('x', src)`, { maxHeapMb: 2048 }),
  native('eval of a 25 MB program, in a loop', `const src = 'x+=1;'.repeat(5e6); let x = 0; for (;;) (0, eval)(src)`, { maxHeapMb: 2048 }),
  native('structuredClone of 5e5 objects, in a loop', `const a = Array.from({ length: 5e5 }, (_, i) => ({ i })); for (;;) structuredClone(a)`, { maxHeapMb: 2048 }),
  native('Float64Array sort of 8.8e6 elements, in a loop', `const f = new Float64Array(new TextEncoder().encode('the quick brown fox jumps over the lazy dog '.repeat(2e5))); for (;;) f.slice().sort()`, { maxHeapMb: 1024 }),
  native('localeCompare of long strings, in a loop', `const a = 'é'.repeat(2e6), b = 'é'.repeat(2e6) + 'a'; for (;;) a.localeCompare(b)`, { maxHeapMb: 2048 }),
)

// ─── what a run holds outside its QuickJS heap counts against maxHeapMb ─────────────────────
// `s.rss` is the process's peak RSS growth during the run (sampled every few ms).
const RSS_WITHIN = (mb: number) => `(r, s) => s.rss < ${mb} * 1048576`
add(
  { name: 'heap: 3e6 pending setTimeout', program: `const f = () => {}; for (let i = 0; i < 3e6; i++) setTimeout(f, 1e9); return 1`, config: { computeMs: 20_000, maxWallMs: 30_000 }, expect: 'worker-exit', message: /32 MB/, check: RSS_WITHIN(32 + 64) },
  { name: 'heap: 3e6 pending setTimeout with arguments', program: `const f = () => {}; for (let i = 0; i < 3e6; i++) setTimeout(f, 1e9, i, i, i); return 1`, config: { computeMs: 20_000, maxWallMs: 30_000 }, expect: 'worker-exit', check: RSS_WITHIN(32 + 64) },
  { name: 'heap: 3e6 setInterval', program: `for (let i = 0; i < 3e6; i++) setInterval(() => {}, 1e9); return 1`, config: { computeMs: 20_000, maxWallMs: 30_000 }, expect: 'worker-exit', check: RSS_WITHIN(32 + 64) },
  { name: 'heap: setTimeout caught when refused', program: `try { for (let i = 0; i < 3e6; i++) setTimeout(() => {}, 1e9) } catch { return 'caught' } return 1`, config: { computeMs: 20_000, maxWallMs: 30_000 }, expect: 'worker-exit' },
  { name: 'heap: cleared timers give their memory back', program: `const f = () => {}; for (let i = 0; i < 3e5; i++) clearTimeout(setTimeout(f, 1e9)); return 1`, config: { computeMs: 20_000, maxWallMs: 30_000, maxHeapMb: 4 }, expect: 'value', value: 1 },
  { name: 'heap: fired timers give their memory back', program: `let n = 0; for (let k = 0; k < 20; k++) { for (let i = 0; i < 1e4; i++) setTimeout(() => { n++ }, 0); await new Promise((r) => setTimeout(r, 1)) } return n`, config: { computeMs: 20_000, maxWallMs: 30_000, maxHeapMb: 8 }, expect: 'value', value: 200_000 },
  {
    name: 'heap: 3e6 pending binding calls',
    program: `for (let i = 0; i < 3e6; i++) tools.never(i); return 1`,
    bindings: `ns({ never: () => new Promise(() => {}) })`,
    config: { computeMs: 20_000, maxWallMs: 30_000 },
    expect: 'worker-exit',
    check: RSS_WITHIN(32 + 200),
  },
  {
    name: 'heap: 30 binding calls with a 20 MB argument each',
    program: `const s = 'x'.repeat(2e7); for (let i = 0; i < 30; i++) tools.sink(s); return await tools.done(0)`,
    bindings: `ns({ sink: async () => 1, done: async () => 'done' })`,
    config: { computeMs: 20_000, maxWallMs: 30_000 },
    expect: 'worker-exit',
  },
  // The logs kept (~30 MB) also cross to the host in the result, copied on the way.
  { name: 'heap: 1e6 kept log lines under a huge output cap', program: `for (let i = 0; i < 1e6; i++) console.log('x'.repeat(100)); return 1`, config: { computeMs: 20_000, maxWallMs: 30_000, maxOutputBytes: 2 ** 40 }, expect: 'worker-exit', check: RSS_WITHIN(32 + 160) },
  { name: 'heap: new URL of a 100 MB string', program: `return new URL('http://a/' + 'a'.repeat(1e8)).href.length`, config: { computeMs: 20_000, maxWallMs: 30_000, maxHeapMb: 256 }, expect: 'worker-exit', check: RSS_WITHIN(256 + 64) },
  { name: 'heap: TextEncoder of a 100 MB string', program: `return new TextEncoder().encode('a'.repeat(1e8)).length`, config: { computeMs: 20_000, maxWallMs: 30_000, maxHeapMb: 256 }, expect: 'worker-exit', check: RSS_WITHIN(256 + 64) },
)

// ─── maxProgramBytes: a program too large to transform quickly is refused ───────────────────
add(
  { name: 'source: a program over maxProgramBytes', program: 'return 1 //' + 'x'.repeat(5000), config: { maxProgramBytes: 4096 }, expect: 'exception', message: /^program is 5011 bytes of UTF-8, over the maxProgramBytes limit of 4096 bytes$/ },
  { name: 'source: a 10 MB program under the default maxProgramBytes', program: 'let x = 0\n' + 'x+=1;\n'.repeat(1_750_000) + 'return x', expect: 'exception', message: /maxProgramBytes limit of 1048576 bytes/, check: `(r, s) => s.ms < 2000` },
)

// ─── the runner: one child process, all cases, one after another ──────────────────────────────
const RUNNER = String.raw`
'use strict'
const fs = require('fs')
const util = require('util')
const { CodeRuntime } = require(process.env.HOSTILE_ENTRY)
const [casesFile, fromArg] = process.argv.slice(2)
const cases = JSON.parse(fs.readFileSync(casesFile, 'utf8'))
const DEFAULTS = JSON.parse(process.env.HOSTILE_DEFAULTS)
const out = (o) => fs.writeSync(1, (typeof o === 'string' ? o : JSON.stringify(o)) + '\n')
const state = { calls: 0 }
const hit = () => { state.calls++ }
const ns = (functions, extra) => [{ global: 'tools', functions, ...(extra || {}) }]
const nest = (n, leaf = 1) => { let v = leaf; for (let i = 0; i < n; i++) v = [v]; return v }
const depth = (v) => { let d = 0; while (Array.isArray(v)) { v = v[0]; d++ } return d }
const safeJson = (v, max) => { try { const s = JSON.stringify(v); return s === undefined || s.length > max ? undefined : s } catch { return undefined } }
/** JSON byte length without recursion (values may be 1e6 deep). */
const jsonBytes = (root) => {
  if (root === undefined) return 0
  let n = 0
  const stack = [root]
  while (stack.length) {
    const v = stack.pop()
    if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v)
      n += 2 + Math.max(0, keys.length - 1)
      if (Array.isArray(v)) for (const k of keys) stack.push(v[k])
      else for (const k of keys) { n += Buffer.byteLength(JSON.stringify(k)) + 1; stack.push(v[k]) }
    } else n += Buffer.byteLength(JSON.stringify(v))
  }
  return n
}
const settle = (p, ms) => new Promise((resolve) => {
  const t = setTimeout(() => resolve({ hung: true }), ms)
  p.then((v) => { clearTimeout(t); resolve({ v }) }, (e) => { clearTimeout(t); resolve({ e }) })
})
const evalSrc = (src) => new Function('hit', 'state', 'ns', 'nest', 'depth', 'util', 'return (' + src + ')')(hit, state, ns, nest, depth, util)

;(async () => {
  for (let i = Number(fromArg || 0); i < cases.length; i++) {
    const c = cases[i]
    out({ start: c.name })
    for (const k of Object.keys(state)) delete state[k]
    state.calls = 0
    const config = { ...DEFAULTS, ...(c.config || {}) }
    const rec = { name: c.name }
    let rt
    try { rt = new CodeRuntime(config) } catch (e) { out({ ...rec, kind: 'config-error', message: String(e) }); continue }
    const bindings = c.bindings ? evalSrc(c.bindings) : []
    const rss0 = process.memoryUsage.rss()
    let rssPeak = rss0
    const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, process.memoryUsage.rss()) }, 2)
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    const res = await settle(rt.run({ program: c.program, bindings }), config.maxWallMs + 20000)
    const ms = performance.now() - t0
    const cpuUsed = process.cpuUsage(cpu0)
    const cpu = (cpuUsed.user + cpuUsed.system) / 1000
    clearInterval(sampler)
    const rss = Math.max(rssPeak, process.memoryUsage.rss()) - rss0
    rec.cpu = Math.round(cpu)
    rec.rss = rss
    rec.ms = Math.round(ms)
    if (res.hung) rec.kind = 'hung'
    else if ('e' in res) { rec.kind = 'rejected'; rec.message = String(res.e && res.e.message || res.e) }
    else {
      const r = res.v
      rec.kind = r.error ? r.error.kind : 'value'
      rec.shape = Object.keys(r).sort().join(',')
      if (r.error) rec.message = String(r.error.message).slice(0, 400)
      rec.logsCount = r.logs.length
      rec.logs = safeJson(r.logs, 8000)
      if (rec.logs === undefined) rec.logsHead = r.logs.slice(0, 3).map((l) => l.slice(0, 120))
      rec.value = safeJson(r.value, 65536)
      rec.valueType = Array.isArray(r.value) ? 'array' : r.value === null ? 'null' : typeof r.value
      try {
        const bytes = jsonBytes(r.logs) + (r.error ? Buffer.byteLength(JSON.stringify(r.error.message)) : jsonBytes(r.value))
        rec.ledger = bytes <= config.maxOutputBytes
        rec.bytes = bytes
      } catch (e) { rec.ledger = 'error: ' + e }
      if (c.check) {
        try { rec.check = evalSrc(c.check)(r, { ms, cpu, rss, calls: state.calls, state, util, nest, depth }) === true } catch (e) { rec.check = 'threw: ' + e }
      }
    }
    rec.calls = state.calls
    rec.last = state.last === undefined ? undefined : safeJson(state.last, 65536)
    const f = await settle(rt.run({ program: 'return 1', bindings: [] }), 20000)
    rec.ok = !f.hung && 'v' in f && Object.keys(f.v).length === 2 && JSON.stringify(f.v) === '{"logs":[],"value":1}'
    if (!rec.ok) rec.followup = f.hung ? 'hung' : 'e' in f ? 'rejected: ' + f.e : JSON.stringify(f.v).slice(0, 300)
    const d = await settle(rt.dispose(), 20000)
    rec.disposed = !d.hung && 'v' in d
    out(rec)
  }
  out('done')
})()
`

interface Record_ {
  name: string
  cpu?: number
  rss?: number
  kind?: string
  ok?: boolean
  ms?: number
  shape?: string
  message?: string
  logs?: string
  logsCount?: number
  logsHead?: string[]
  value?: string
  valueType?: string
  ledger?: boolean | string
  bytes?: number
  check?: boolean | string
  calls?: number
  last?: string
  followup?: string
  disposed?: boolean
}
interface Child {
  from: number
  status: number | null
  signal: string | null
  done: boolean
  crashedIn?: string
  stderrTail: string
  error?: string
}

const results = new Map<string, Record_>()
const children: Child[] = []
let dir = ''

beforeAll(() => {
  const names = new Set<string>()
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`duplicate case name ${c.name}`)
    names.add(c.name)
  }
  dir = mkdtempSync(join(tmpdir(), 'hostile-'))
  const runner = join(dir, 'runner.cjs')
  const casesFile = join(dir, 'cases.json')
  writeFileSync(runner, RUNNER)
  writeFileSync(casesFile, JSON.stringify(cases))
  const env = { ...process.env, HOSTILE_ENTRY: join(__dirname, '..', 'index.js'), HOSTILE_DEFAULTS: JSON.stringify(DEFAULTS) }
  const started = Date.now()
  let from = 0
  while (from < cases.length && Date.now() - started < 450_000) {
    const p = spawnSync(process.execPath, [runner, casesFile, String(from)], { encoding: 'utf8', env, timeout: 300_000, maxBuffer: 1 << 28, killSignal: 'SIGKILL' })
    let pending: string | undefined
    let done = false
    for (const line of (p.stdout ?? '').split('\n')) {
      if (line === 'done') done = true
      if (!line.startsWith('{')) continue
      const rec = JSON.parse(line)
      if (rec.start !== undefined) pending = rec.start
      else {
        results.set(rec.name, rec)
        pending = undefined
      }
    }
    const child: Child = { from, status: p.status, signal: p.signal, done, crashedIn: pending, stderrTail: (p.stderr ?? '').slice(-3000), error: p.error?.message }
    children.push(child)
    if (done) break
    // Resume after the case that was running when the child died (or after the last reported one).
    const last = pending ?? [...results.keys()].pop()
    const idx = last === undefined ? -1 : cases.findIndex((c) => c.name === last)
    if (idx + 1 <= from) break
    from = idx + 1
  }
}, 600_000)

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  // HOSTILE_REPORT=<file> keeps every case's raw record and the children's exits for inspection.
  if (process.env.HOSTILE_REPORT) writeFileSync(process.env.HOSTILE_REPORT, JSON.stringify({ children, results: [...results.values()] }, null, 1))
})

describe('hostile programs in one child process', () => {
  test('the corpus has at least 60 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60)
  })

  test('the child stays alive through every case, prints done and exits 0', () => {
    const first = children[0]
    const summary = children.map((c) => ({ ...c, crashedIn: c.crashedIn }))
    expect(children.length, JSON.stringify(summary, null, 2)).toBe(1)
    expect(first.done, JSON.stringify(summary, null, 2)).toBe(true)
    expect(first.status, JSON.stringify(summary, null, 2)).toBe(0)
  })

  test.each(cases.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const r = results.get(name)
    const died = children.find((ch) => ch.crashedIn === name)
    expect(r, died ? `the child died running this case: ${JSON.stringify(died)}` : 'no result (the child died earlier)').toBeDefined()
    const rec = r!
    const where = JSON.stringify(rec)
    const allowed = Array.isArray(c.expect) ? c.expect : [c.expect]
    expect(allowed, where).toContain(rec.kind)
    expect(['error,logs', 'logs', 'logs,value'], where).toContain(rec.shape)
    expect(rec.ledger, where).toBe(true)
    if (c.message && rec.kind !== 'value') expect(rec.message, where).toMatch(c.message)
    if ('value' in c && rec.kind === 'value') {
      expect(rec.value, `value too large to report: ${where}`).toBeDefined()
      expect(JSON.parse(rec.value!), where).toEqual(c.value)
    }
    if (c.logs) expect(rec.logs === undefined ? rec.logsHead : JSON.parse(rec.logs), where).toEqual(c.logs)
    if (c.calls !== undefined) expect(rec.calls, where).toBe(c.calls)
    if (c.last !== undefined) expect(rec.last === undefined ? undefined : JSON.parse(rec.last), where).toEqual(c.last)
    if (c.check) expect(rec.check, where).toBe(true)
    expect(rec.ok, `the follow-up "return 1" failed: ${where}`).toBe(true)
    expect(rec.disposed, `dispose() did not resolve: ${where}`).toBe(true)
  })
})
