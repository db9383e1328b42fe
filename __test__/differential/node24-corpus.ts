/**
 * Hand-written programs for the console differential test, one family of Node 24's console
 * behaviour each group: format specifiers that throw, built-in types told by internal slots,
 * hidden properties, custom inspection, tables with wide characters, lone surrogates,
 * Proxies, dates, subclasses of built-ins, the web globals, errors, native functions. Each
 * source is the body of an async function (plain JavaScript valid in QuickJS and Node).
 * Sources are written with `String.raw`, or as plain quoted strings where they hold a backtick.
 */
export interface Node24Case {
  name: string
  source: string
}

const js = String.raw
export const NODE24_CASES: Node24Case[] = []
const c = (name: string, source: string) => void NODE24_CASES.push({ name, source })
/** One case per value: `console.log(value)` for each source expression. */
const each = (family: string, values: string[]) => values.forEach((v) => c(`${family}: ${v}`, `console.log(${v})`))
/**
 * One case per value, caught: what it throws is printed as the run sees it (its class by
 * name: in the reference, errors Node's console throws come from Node's realm, not the
 * node:vm context's, so `instanceof` would tell realms apart rather than classes).
 */
const caught = (family: string, statements: string[]) =>
  statements.forEach((s) => c(`${family}: ${s}`, `try { ${s} } catch (e) { console.log('threw', e?.constructor?.name, String(e)) }`))

// ---------------------------------------------------------------- format specifiers
c('format: %j of a bigint fails the run', js`console.log('%j', 1n)`)
caught('format throws', [
  `console.log('%j', { a: 1n })`,
  `console.log('%j', [2n])`,
  `console.log('%d', Object.create(null))`,
  `console.log('%i', Object.create(null))`,
  `console.log('%f', [Symbol()])`,
  `console.log('%f', Object.create(null))`,
  `console.log('%f', Symbol('s'))`,
  `console.log('%d', { valueOf() { throw new RangeError('valueOf') } })`,
  `console.log('%s', { toString() { throw new Error('never called') } })`,
  `console.log('%j', { toJSON() { throw new Error('toJSON') } })`,
  `console.log('%j', { get x() { throw new Error('getter') } })`,
])
c('format: %d of objects', js`console.log('%d %d %d %d %d', {}, [], [5], new Date(0), { valueOf() { return 7 } })`)
c('format: %i of objects', js`console.log('%i %i %i %i', {}, '42.9px', [3.9], { valueOf() { return 7.8 } })`)
c('format: %d and %i of bigints and symbols', js`console.log('%d %i %d %i', 5n, 6n, Symbol('x'), Symbol('y'))`)
c('format: %f of strings and bigints', js`console.log('%f %f %f %f', '1.5e3', '  2 ', 3n, null)`)
c('format: %s of objects and primitives', js`console.log('%s|%s|%s|%s|%s|%s|%s', { a: 1 }, [1, [2]], -0, 5n, Symbol('s'), null, undefined)`)
c('format: %s of an error and a class instance', js`class P { constructor() { this.x = 1 } }; const e = new Error('m'); e.stack = 'Error: m\n    at x'; console.log('%s / %s', e, new P())`)
c('format: %s of an object with own toString', js`console.log('%s', { toString() { return 'mine' } }); console.log('%s', { a: { toString() { return 'nested' } } })`)
c('format: %s of a Date and a function', js`console.log('%s %s', new Date(0), function f() {})`)
c('format: %o of a function', js`console.log('%o', function foo(a, b) { return a + b })`)
c('format: %o of a class and an array', js`console.log('%o', class A { static s = 1 }); console.log('%o', [1, { a: 2 }])`)
c('format: %O of nested', js`console.log('%O', { a: { b: { c: { d: { e: { f: 1 } } } } } })`)
c('format: %c is dropped', js`console.log('%cred%c plain', 'color: red', 'x', 'rest')`)
c('format: %% and missing arguments', js`console.log('100%% %s %d', 'a'); console.log('%s'); console.log('%z %s', 1)`)
c('format: trailing percent', js`console.log('50%', 1); console.log('%', 'x'); console.log('a%s%', 'b')`)
c('format: %j of circular and of undefined', js`const o = {}; o.o = o; console.log('%j|%j|%j', o, undefined, () => 1)`)
c('format: first argument not a string', js`console.log(5, '%s', 'x'); console.log({}, '%d', 1)`)

c('errors: a name that cannot be a string', js`const e = new Error('m'); e.name = Object.create(null); console.log(e); console.log({ e })`)
c('errors: a message that is a Symbol', js`const e = new RangeError('m'); e.message = Symbol('q'); console.log(e); console.log([e])`)
c('errors: a name getter that throws', js`const e = new Error('m'); Object.defineProperty(e, 'name', { get() { throw new Error('nm') } }); console.log(e)`)
c('errors: a subclass whose name is an object', js`console.log(new (class P extends Error { constructor() { super('m'); this.name = Object.assign(Object.create(null), { b: 1 }) } })())`)
c('null prototype: a constructor key holding an error', js`console.log({ x: Object.assign(Object.create(null), { constructor: new TypeError('q') }) })`)
c('null prototype: constructor keys of every kind', js`for (const v of ['zz', 1e21, true, Symbol('s'), { name: 'Q' }, function F() {}, class K {}]) console.log(Object.assign(Object.create(null), { constructor: v, a: 1 }))`)
c('null prototype: beyond the depth', js`console.log({ a: { b: { c: { d: { e: Object.assign(Object.create(null), { constructor: 'zz' }) } } } } })`)

// ---------------------------------------------------------------- internal slots, not names
each('slots', [
  `{ __proto__: Promise.resolve(1), a: 1 }`,
  `new (class RegExp {})()`,
  `new (class Date {})()`,
  `new (class Map {})()`,
  `new (class Set {})()`,
  `new (class Error {})()`,
  `new (class Promise {})()`,
  `new (class Array {})()`,
  `new (class Uint8Array {})()`,
  `new (class ArrayBuffer {})()`,
  `Object.create(Map.prototype)`,
  `Object.create(Set.prototype)`,
  `Object.create(Date.prototype)`,
  `Object.create(RegExp.prototype)`,
  `Object.create(Array.prototype)`,
  `Object.create(Error.prototype)`,
  `Object.create(Uint8Array.prototype)`,
  `Object.create(Promise.prototype)`,
  `{ __proto__: new Map([[1, 2]]), own: 1 }`,
  `{ __proto__: [1, 2], own: 1 }`,
  `{ __proto__: new Date(0) }`,
  `{ __proto__: /re/g, k: 1 }`,
  `{ __proto__: new Uint8Array(2), k: 1 }`,
  `[{ __proto__: Uint8Array.prototype }, 1]`,
  `{ constructor: 1, a: 2 }`,
  `{ constructor: { name: 'Fake' }, a: 2 }`,
  `{ constructor: function Named() {} }`,
  `[{ constructor: 'x' }]`,
  `JSON.parse('{"__proto__": 1, "b": 2}')`,
  `JSON.parse('{"__proto__": {"x": 1}}')`,
  `{ ['__proto__']: [1, 2] }`,
  `Object.setPrototypeOf(new Map([[1, 2]]), null)`,
  `Object.setPrototypeOf([1, 2], null)`,
  `Object.setPrototypeOf(new Set([1]), Object.prototype)`,
  `Object.setPrototypeOf(new Date(0), null)`,
  `Object.setPrototypeOf(/x/, null)`,
  `Object.setPrototypeOf(new Error('e'), null)`,
  `Object.setPrototypeOf(new Uint8Array(1), null)`,
  `Object.setPrototypeOf(function f() {}, null)`,
  `Object.setPrototypeOf(Promise.resolve(2), null)`,
  `Object.setPrototypeOf({ a: 1 }, Array.prototype)`,
  `(() => { const m = new Map(); Object.defineProperty(m, Symbol.toStringTag, { value: 'Tagged' }); return m })()`,
  `{ [Symbol.toStringTag]: 'Custom', a: 1 }`,
  `new (class Foo { get [Symbol.toStringTag]() { return 'Bar' } })()`,
  `Object.create(null, { [Symbol.toStringTag]: { value: 'NP' } })`,
])

// ---------------------------------------------------------------- hidden properties
c('hidden: %o of a typed array', js`console.log('%o', new Uint8Array(2))`)
c('hidden: %o of an array', js`console.log('%o', [1, 'a'])`)
c('hidden: %o of an error', js`const e = new RangeError('r'); e.stack = 'RangeError: r\n    at here'; console.log('%o', e)`)
c('hidden: %o of a Map and Set', js`console.log('%o', new Map([[1, 2]])); console.log('%o', new Set(['a']))`)
c('hidden: %o of an arrow and a class', js`console.log('%o', (a) => a); console.log('%o', class K {})`)
c('hidden: %o of a getter object', js`console.log('%o', { get g() { return 1 }, set s(v) {} })`)
c('hidden: %o of a Date and RegExp', js`console.log('%o', new Date(0)); console.log('%o', /x/g)`)
c('hidden: %o of an ArrayBuffer', js`console.log('%o', new ArrayBuffer(3))`)
c('hidden: %o of a boxed string', js`console.log('%o', new String('ab'))`)
c('hidden: dir showHidden async function', js`console.dir(async function af() {}, { showHidden: true })`)
c('hidden: dir showHidden generator function', js`console.dir(function* g() {}, { showHidden: true })`)
c('hidden: dir showHidden arrow', js`console.dir(() => {}, { showHidden: true })`)
c('hidden: dir showHidden class', js`console.dir(class A { static x = 1 }, { showHidden: true })`)
c('hidden: dir showHidden error', js`const e = new TypeError('t'); e.stack = 'TypeError: t\n    at here'; console.dir(e, { showHidden: true })`)
c('hidden: dir showHidden error with cause', js`const e = new Error('t', { cause: 'why' }); e.stack = 'Error: t\n    at here'; console.dir(e, { showHidden: true })`)
c('hidden: dir showHidden typed array', js`console.dir(new Int16Array([1, -2]), { showHidden: true })`)
c('hidden: dir showHidden Map', js`console.dir(new Map([['k', 'v']]), { showHidden: true })`)
c('hidden: dir showHidden non-enumerable and symbol', js`const o = { a: 1 }; Object.defineProperty(o, 'h', { value: 2 }); Object.defineProperty(o, Symbol('s'), { value: 3 }); console.dir(o, { showHidden: true })`)
c('hidden: dir showHidden boxed number', js`console.dir(new Number(5), { showHidden: true })`)
c('hidden: dir showHidden Date', js`console.dir(new Date(0), { showHidden: true })`)
c('hidden: dir showHidden DataView', js`console.dir(new DataView(new ArrayBuffer(2), 1), { showHidden: true })`)
c('hidden: dir showHidden Promise', js`console.dir(Promise.resolve({ a: 1 }), { showHidden: true })`)
c('hidden: dir showHidden WeakMap', js`console.dir(new WeakMap(), { showHidden: true })`)
c('hidden: ArrayBuffer and DataView', js`console.log(new ArrayBuffer(4)); console.log(new DataView(new ArrayBuffer(2)))`)
c('hidden: SharedArrayBuffer-free typed arrays', js`console.log(new Float32Array([0.5, -1]), new BigInt64Array([1n]))`)

// ---------------------------------------------------------------- custom inspection
const custom = `Symbol.for('nodejs.util.inspect.custom')`
c('custom: returns a string', `console.log({ [${custom}]() { return 'custom!' } })`)
c('custom: nested in an object', `console.log({ a: 1, b: { [${custom}]() { return 'inner' } } })`)
c('custom: returns an object', `console.log({ [${custom}]() { return { replaced: [1, 2] } } })`)
c('custom: returns a number', `console.log([{ [${custom}]() { return 42 } }])`)
c('custom: receives depth and options', `console.log({ x: { [${custom}](depth, options) { return 'depth=' + depth + ' ' + typeof options.stylize + ' ' + options.depth + ' ' + options.maxArrayLength } } })`)
c('custom: uses the inspect argument', `console.log({ [${custom}](depth, options, inspect) { return 'W<' + inspect({ a: [1, 2] }, options) + '>' } })`)
c('custom: uses stylize', `console.log({ [${custom}](d, o) { return o.stylize('styled', 'special') } })`)
c('custom: this is the value', `console.log({ tag: 't', [${custom}]() { return 'tag=' + this.tag } })`)
c('custom: on a class', `class Money { constructor(v) { this.v = v } [${custom}]() { return '$' + this.v } }; console.log(new Money(5), [new Money(6)])`)
c('custom: throws', `try { console.log({ [${custom}]() { throw new Error('from custom') } }) } catch (e) { console.log('caught', e.message) }`)
c('custom: a non-function is ignored', `console.log({ [${custom}]: 5, a: 1 })`)
c('custom: returns this', `const o = { a: 1, [${custom}]() { return this } }; console.log(o)`)
c('custom: multi-line result in an object', `console.log({ a: { [${custom}]() { return 'line1\\nline2' } } })`)
c('custom: with %s and %o', `const o = { [${custom}]() { return 'C' } }; console.log('%s %o %O', o, o, o)`)
c('custom: dir does not call it', `console.dir({ [${custom}]() { return 'no' } })`)
c('custom: called per depth', `const o = { [${custom}](d) { return 'd' + d } }; console.log({ l1: { l2: o } }, o)`)
c('custom: inside Map and Set', `const o = { [${custom}]() { return 'M' } }; console.log(new Map([[o, o]]), new Set([o]))`)
c('custom: in an array beyond 6', `const o = { [${custom}]() { return 'x' } }; console.log([o, o, o, o, o, o, o, o])`)
c('custom: on the prototype chain', `const base = { [${custom}]() { return 'from proto' } }; console.log(Object.create(base))`)
c('custom: in a table', `console.table([{ c: { [${custom}]() { return 'T' } } }])`)
c('custom: the inspect argument honours options', `console.log({ [${custom}](d, o, inspect) { return inspect('s', { ...o, colors: false }) + inspect([1, [2, [3]]], { depth: 0 }) } })`)
c('custom: logs from inside', `console.log({ [${custom}]() { console.log('inside'); return 'outer' } })`)

// ---------------------------------------------------------------- table widths
c('table: wide characters in a multi-line cell', js`console.table([{ a: ['中文', 1, 2, 3, 4, 5, 6] }])`)
c('table: wide keys and values', js`console.table({ 名前: { 値: '日本語' }, b: { 値: 'x' } })`)
c('table: emoji in nested arrays', js`console.table([{ e: ['😀', '😀😀', 1, 2, 3, 4, 5] }, { e: 'plain' }])`)
c('table: long nested objects', js`console.table([{ o: { k1: 'v'.repeat(30), k2: 'w'.repeat(30), k3: [1, 2, 3] } }])`)
c('table: combining marks', js`console.table([{ s: 'e\u0301e\u0301', t: 'café' }])`)
c('table: primitive rows and wide values', js`console.table(['中', '中文字', 1])`)

// ---------------------------------------------------------------- strings
each('surrogates', [`'\\ud800 lone'`, `['\\ud800 lone']`, `'\\udfff'`, `{ s: '\\udc00\\ud800' }`, `'a\\ud83d'`, `['\\ud83d\\ude00']`])
c('surrogates: %s and concatenation', js`console.log('%s!', '\ud800'); console.log('x', '\udbff', 'y')`)
c('strings: long strings at the cap', js`console.log(['a'.repeat(10001)]); console.log('b'.repeat(10001).length)`)
c('strings: quotes choice in keys', js`console.log({ "it's": 1, 'a"b': 2, 'a\x60b': 3, "'\"\x60": 4 })`)

// ---------------------------------------------------------------- Proxies
each('proxy', [
  `(() => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy })()`,
  `(() => { const p = Proxy.revocable([1], {}); p.revoke(); return [p.proxy] })()`,
  `new Proxy({ a: 1 }, {})`,
  `new Proxy([1, 2], {})`,
  `new Proxy(function f() {}, {})`,
  `new Proxy({ a: 1 }, { get() { return 'trap' }, ownKeys() { return ['z'] } })`,
  `new Proxy(new Map([[1, 2]]), {})`,
  `{ p: new Proxy({ inner: true }, {}) }`,
  `new Proxy(new Proxy({ deep: 1 }, {}), {})`,
])
c('proxy: dir showProxy', js`console.dir(new Proxy({ a: 1 }, { get() {} }), { showProxy: true }); const p = Proxy.revocable({}, {}); p.revoke(); console.dir(p.proxy, { showProxy: true })`)
c('proxy: %s and %o', js`const p = new Proxy({ a: 1 }, {}); console.log('%s|%o|%O', p, p, p)`)

// ---------------------------------------------------------------- dates
c('dates: String of a Date', js`console.log(String(new Date(0)))`)
c('dates: toString and toTimeString', js`const d = new Date(Date.UTC(2024, 1, 29, 13, 5, 9)); console.log(d.toString()); console.log(d.toTimeString()); console.log(d.toDateString())`)
c('dates: a date in a template', 'console.log(`at ${new Date(86400000)}`)')
c('dates: inspected', js`console.log(new Date(0), [new Date(1e12)], { d: new Date(NaN) })`)
c('dates: toUTCString and ISO', js`const d = new Date(0); console.log(d.toUTCString(), d.toISOString(), d.toJSON())`)
c('dates: subclass and own props', js`class D extends Date {}; const d = new D(0); d.x = 1; console.log(d); const e = new Date(0); e.y = 2; console.log(e)`)

// ---------------------------------------------------------------- subclasses
each('subclass', [
  `new (class MySet extends Set {})([1])`,
  `new (class MyMap extends Map {})([[1, 2]])`,
  `new (class MyArray extends Array {})(3).fill(0)`,
  `new (class MyError extends Error {})('m').name`,
  `new (class MyPromise extends Promise {})(() => {})`,
  `new (class MyRegExp extends RegExp {})('x', 'g')`,
  `new (class MyU8 extends Uint8Array {})(2)`,
  `new (class MyDate extends Date {})(0)`,
  `new (class Empty extends Set {})()`,
  `new (class MyMap2 extends Map {})()`,
  `Object.assign(new (class Tagged extends Map {})(), { x: 1 })`,
  `new (class MyWeak extends WeakMap {})()`,
  `new (class Obj extends Object {})()`,
  `new (class N extends Number {})(5)`,
  `new (class S extends String {})('ab')`,
  `new (class A { constructor() { this.a = 1 } })()`,
  `new (class extends Array {})()`,
  `new (class extends Map {})([[1, 1]])`,
])
c('subclass: errors', js`class MyError extends Error {}; const e = new MyError('m'); e.stack = 'Error: m\n    at x'; console.log(e); class Named extends Error { constructor() { super('n'); this.name = 'Named' } }; const n = new Named(); n.stack = 'Named: n\n    at y'; console.log(n)`)

// ---------------------------------------------------------------- web globals
each('web', [
  `new URL('https://a.b/c?d=1#e')`,
  `new URL('http://user:pw@example.com:8080/p/a/t/h?query=string#hash')`,
  `[new URL('file:///tmp/x')]`,
  `{ u: new URL('https://x.y/') }`,
  `new URLSearchParams('a=1&b=2')`,
  `new URLSearchParams('')`,
  `new URLSearchParams({ k: 'v', 'sp ace': 'x y' })`,
  `new URL('https://q.r/?a=1&a=2').searchParams`,
  `new TextEncoder()`,
  `new TextDecoder()`,
  `[new TextEncoder(), new TextDecoder('utf-8', { fatal: true })]`,
  `new TextEncoder().encode('hé')`,
  `new URLSearchParams('a=1').keys()`,
  `new URLSearchParams('a=1&b=2').entries()`,
])
c('web: URL with %s and String', js`const u = new URL('https://a.b/c'); console.log('%s', u); console.log(String(u), u.href)`)

// ---------------------------------------------------------------- errors
c('errors: Error shows its own stackTraceLimit', js`console.log(Error)`)
each('errors', [`TypeError`, `[Error, RangeError]`, `{ E: Error }`, `AggregateError`])
c('errors: stackTraceLimit changed', js`Error.stackTraceLimit = 3; console.log(Error); delete Error.stackTraceLimit; console.log(Error)`)
c('errors: own props of an error', js`const e = new Error('m'); e.stack = 'Error: m\n    at f'; e.code = 'E1'; e.extra = { a: 1 }; console.log(e)`)
c('errors: stack without the message', js`const e = new Error('m'); e.stack = 'only stack'; console.log(e); console.log([e])`)
c('errors: name changed', js`const e = new TypeError('m'); e.name = 'Other'; e.stack = 'TypeError: m\n    at f'; console.log(e)`)
c('errors: message changed', js`const e = new Error('m'); e.message = 'changed'; e.stack = 'Error: m\n    at f'; console.log(e)`)
c('errors: empty stack', js`const e = new Error('m'); e.stack = ''; console.log(e); const f = new Error('n'); delete f.stack; console.log(f)`)
c('errors: cause and aggregate', js`const e = new Error('outer', { cause: new Error('inner') }); e.stack = 'Error: outer\n    at f'; e.cause.stack = 'Error: inner\n    at g'; console.log(e)`)
c('errors: aggregate errors', js`const a = new AggregateError([new Error('x')], 'agg'); a.stack = 'AggregateError: agg\n    at f'; a.errors[0].stack = 'Error: x\n    at g'; console.log(a)`)
c('errors: non-error with a stack', js`console.log({ stack: 'not an error', message: 'm' })`)
c('errors: thrown and logged', js`try { null.x } catch (e) { console.log(e.name, e instanceof TypeError) }`)
c('errors: null prototype error', js`const e = new Error('np'); e.stack = 'Error: np\n    at f'; Object.setPrototypeOf(e, null); console.log(e)`)
c('errors: error in a nested array', js`const e = new Error('deep'); e.stack = 'Error: deep\n    at f\n    at g'; console.log({ list: [e] })`)

// ---------------------------------------------------------------- native functions
each('natives', [
  `Math.max`,
  `[Math.max, JSON.parse]`,
  `Array.prototype.push`,
  `Object`,
  `Array`,
  `Map`,
  `Promise`,
  `Symbol`,
  `Function.prototype`,
  `parseInt`,
  `{ f: Object.keys }`,
  `String.prototype.at`,
  `Math.max.bind(null)`,
  `(function named() {}).bind(null)`,
  `Object.getOwnPropertyDescriptor(Map.prototype, 'size').get`,
  `Reflect.apply`,
  `Date`,
  `RegExp`,
  `Uint8Array`,
  `BigInt`,
  `Proxy`,
  `console.log`,
])

// ---------------------------------------------------------------- functions and classes
each('functions', [
  `function withProps() {}`,
  `Object.assign(function f() {}, { a: 1 })`,
  `Object.assign(() => {}, { b: [1] })`,
  `class A { static s = 1 }`,
  `class B extends Array {}`,
  `class {}`,
  `(() => { const f = function () {}; return f })()`,
  `Object.defineProperty(function g() {}, 'name', { value: '' })`,
  `Object.defineProperty(function g() {}, 'name', { value: 5 })`,
  `async () => {}`,
  `async function* ag() {}`,
  `{ method() {}, async am() {}, *gm() {}, get g() { return 1 }, set s(v) {}, get gs() { return 1 }, set gs(v) {} }`,
  `Object.setPrototypeOf(function nf() {}, null)`,
  `Object.setPrototypeOf(class NC {}, null)`,
])

// ---------------------------------------------------------------- boxed primitives and misc
each('boxed', [
  `new Number(-0)`,
  `new String('abc')`,
  `Object.assign(new String('ab'), { extra: 1 })`,
  `new Boolean(true)`,
  `Object(1n)`,
  `Object(Symbol('sym'))`,
  `[new Number(1), new String('')]`,
])
each('misc', [
  `globalThis.Math`,
  `JSON`,
  `Reflect`,
  `Atomics`,
  `new WeakSet()`,
  `new WeakRef({})`,
  `Symbol.prototype`,
  `Promise.reject(new Error('r')).catch(() => {}) && Promise.resolve(1)`,
  `[Promise.resolve(undefined), new Promise(() => {})]`,
  `(async () => { throw 1 })().catch(() => {}) && 1`,
  `[1, , 3]`,
  `Object.assign([1, 2], { k: 'v', '-1': 0 })`,
  `new Array(5)`,
  `[undefined, null, , ]`,
  `Object.assign(Object.create(null), { a: { b: Object.create(null) } })`,
  `[].values()`,
  `new Map([[1, 2]]).keys()`,
  `new Set([1]).entries()`,
  `'abc'[Symbol.iterator]()`,
  `(function* () { yield 1 })()`,
  `new Map([[{ a: 1 }, [1, 2]], [NaN, -0]])`,
  `new Set([[1], { b: 2 }, 'str'])`,
])
