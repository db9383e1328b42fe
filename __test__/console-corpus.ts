/**
 * Corpus for the console-methods differential test: every case is plain JavaScript (ES2023,
 * no host APIs) calling methods of `console`. The expected logs are what Node's own
 * `new Console({ stdout, stderr, groupIndentation: 2, inspectOptions: { depth: 4,
 * maxArrayLength: 100, maxStringLength: 10000 } })` writes for the same statements, one entry
 * per write, with Node's process warnings as `Warning: <text>` entries; durations are
 * normalised before comparing.
 *
 * Sources are written with `String.raw`; a backtick inside a source is spelled `\x60`.
 */

export interface ConsoleCase {
  method: string
  name: string
  /** statements using `console`, valid in Node 20 and QuickJS */
  source: string
}

const js = String.raw
const cases: ConsoleCase[] = []
const on = (method: string) => (name: string, source: string) => cases.push({ method, name, source })

// ---------------------------------------------------------------------------------------
const table = on('table')
table('array of objects', js`console.table([{ a: 1, b: 'x' }, { a: 2, b: 'y' }])`)
table('object of objects', js`console.table({ alice: { age: 30, city: 'Oslo' }, bob: { age: 25, city: 'Rome' } })`)
table('array of primitives', js`console.table([1, 'two', true, null, undefined, 3n, -0])`)
table('array of arrays', js`console.table([[1, 2], [3, 4, 5], []])`)
table('properties filter', js`console.table([{ a: 1, b: 2, c: 3 }, { a: 4, b: 5, c: 6 }], ['c', 'a'])`)
table('properties naming missing columns', js`console.table([{ a: 1 }, { b: 2 }], ['a', 'zzz'])`)
table('properties with primitive rows', js`console.table([1, { a: 2 }, 'x'], ['a'])`)
table('empty properties', js`console.table([{ a: 1 }], [])`)
table('mixed and missing columns', js`console.table([{ a: 1 }, { b: 2 }, 3, { a: 4, c: 5 }, 'six'])`)
table('nested values', js`console.table([{ obj: { x: 1, y: { z: [1, 2, 3, 4, 5] } }, arr: [1, [2, [3, [4, [5, [6]]]]]], big: { p: 1, q: 2, r: 3 } }])`)
table('long arrays in cells', js`console.table({ row: { list: Array.from({ length: 120 }, (_, i) => i) } })`)
table('strings needing quotes and escapes', js`console.table([{ s: "it's", t: 'line1\nline2', u: '\x60tick\x60' }])`)
table('Map', js`console.table(new Map([['k1', { a: 1 }], [{ key: true }, 'v2'], [3, [4]]]))`)
table('Set', js`console.table(new Set([1, 'two', { three: 3 }]))`)
table('Map iterator', js`const m = new Map([['a', 1], ['b', { c: 2 }]]); const it = m.entries(); it.next(); console.table(it); console.table(m.keys())`)
table('Set iterator', js`console.table(new Set([1, 2]).values())`)
table('empty array', js`console.table([])`)
table('empty object', js`console.table({})`)
table('typed array', js`console.table(new Uint8Array([1, 2, 3]))`)
table('array of typed arrays', js`console.table([new Int16Array([1, -2]), new Float64Array([0.5])])`)
table('sparse array', js`const a = [1, , 3]; a[6] = 'x'; console.table(a)`)
table('class instances', js`class Point { constructor(x, y) { this.x = x; this.y = y } }; console.table([new Point(1, 2), new Point(3, 4)])`)
table('functions and symbols in cells', js`console.table([{ f: function named() {}, g: () => 1, s: Symbol('sym'), d: new Date(0) }])`)
table('wide characters', js`console.table([{ name: '漢字', v: 'ab' }, { name: 'é', v: '😀😀' }])`)
table('emoji, marks and sequences', js`console.table([{ ok: '✅', bolt: '⚡', acute: 'e\u0301', family: '👨‍👩‍👧', thumb: '👍🏽', hangul: '한국어', full: 'ｆｕｌｌ', watch: '⌚', misc: '§±\u00ad\u200b', note: '\ud834\udd60' }])`)
table('non-object: number', js`console.table(42)`)
table('non-object: string', js`console.table('just a string')`)
table('non-object: null and undefined', js`console.table(null); console.table(undefined); console.table()`)
table('non-object: function', js`console.table(function f() {})`)
table('object with numeric and string keys', js`console.table({ 2: { v: 'two' }, 1: { v: 'one' }, b: { v: 'bee' } })`)
table('row values that are arrays and objects mixed', js`console.table({ r1: [1, 2], r2: { 0: 'zero', x: 'ex' } })`)
table('getter row is read', js`console.table([{ get g() { return 'got' } }])`)
table('a Proxy of an array', js`console.table(new Proxy([{ a: 1 }], {}))`)

// ---------------------------------------------------------------------------------------
const dir = on('dir')
dir('object at the default depth', js`console.dir({ l1: { l2: { l3: { l4: { l5: { l6: 1 } } } } } })`)
dir('depth 0', js`console.dir({ a: { b: 1 }, c: [1, [2]] }, { depth: 0 })`)
dir('depth null', js`console.dir({ l1: { l2: { l3: { l4: { l5: { l6: 1 } } } } } }, { depth: null })`)
dir('depth Infinity', js`console.dir({ l1: { l2: { l3: { l4: { l5: { l6: 1 } } } } } }, { depth: Infinity })`)
dir('a string is quoted', js`console.dir('str'); console.dir("it's")`)
dir('primitives', js`console.dir(1); console.dir(-0); console.dir(2n); console.dir(undefined); console.dir(null); console.dir(Symbol('s')); console.dir(true)`)
dir('no arguments', js`console.dir()`)
dir('showHidden', js`console.dir([1, 2], { showHidden: true })`)
dir('compact false', js`console.dir({ a: 1, b: [1, 2] }, { compact: false })`)
dir('breakLength', js`console.dir({ alpha: 'aaaaaaaa', beta: 'bbbbbbbb', gamma: 'cccccccc' }, { breakLength: 20 })`)
dir('sorted', js`console.dir({ c: 1, a: 2, b: 3 }, { sorted: true })`)
dir('sorted by a comparator', js`console.dir({ c: 1, a: 2, b: 3 }, { sorted: (x, y) => (x < y ? 1 : -1) })`)
dir('maxArrayLength', js`console.dir([1, 2, 3, 4, 5], { maxArrayLength: 2 })`)
dir('maxStringLength', js`console.dir('abcdefghij', { maxStringLength: 4 })`)
dir('numericSeparator', js`console.dir(1234567.891, { numericSeparator: true }); console.dir({ n: 123456789 }, { numericSeparator: true })`)
dir('getters', js`console.dir({ get g() { return 42 }, set s(v) {} }, { getters: true })`)
dir('getters off', js`console.dir({ get g() { return 42 } })`)
dir('a custom inspect method is not called', js`console.dir({ a: 1, [Symbol.for('nodejs.util.inspect.custom')]() { return 'CUSTOM' } })`)
dir('options that are not objects', js`console.dir({ a: { b: { c: 1 } } }, null); console.dir([1], 5); console.dir([2], 'xy')`)
dir('inherited options are ignored', js`console.dir({ a: { b: 1 } }, Object.create({ depth: 0 }))`)
dir('unknown options are ignored', js`console.dir({ a: 1 }, { nope: true })`)
dir('Map, Set and nested arrays', js`console.dir({ m: new Map([[1, { a: [1, 2] }]]), s: new Set(['x']), n: [[[[[1]]]]] })`)
dir('multi-line', js`console.dir({ text: 'x'.repeat(60), more: 'y'.repeat(30), list: [1, 2, 3] })`)

// ---------------------------------------------------------------------------------------
const group = on('group')
group('label, nesting and a multi-line object', js`console.log('top')
console.group('Level 1')
console.log({ name: 'n'.repeat(40), list: ['a'.repeat(30), 'b'.repeat(30)], deep: { x: 1 } })
console.group('Level 2', 'with', 2, 'args')
console.log('line1\nline2')
console.groupEnd()
console.log('back to 1')
console.groupEnd()
console.log('top again')`)
group('groupCollapsed', js`console.groupCollapsed('collapsed'); console.info('inside'); console.groupEnd(); console.log('out')`)
group('without a label', js`console.group(); console.log('indented'); console.group(); console.warn('more'); console.groupEnd(); console.groupEnd(); console.error('none')`)
group('groupEnd below zero', js`console.groupEnd(); console.groupEnd(); console.log('still zero'); console.group('g'); console.log('two'); console.groupEnd(); console.groupEnd(); console.log('zero')`)
group('format string label', js`console.group('%s has %d items', 'list', 3); console.debug('x'); console.groupEnd()`)
group('object label', js`console.group({ label: 'obj' }); console.log([1, 2]); console.groupEnd()`)
group('every method indents', js`console.group('g')
console.table([{ a: 1 }])
console.dir({ d: 1 })
console.count('c')
console.assert(false, 'assertion')
console.dirxml('dirxml')
console.time('t')
console.timeEnd('t')
console.groupEnd()`)
group('warnings are not indented', js`console.group('g'); console.countReset('missing'); console.timeEnd('missing'); console.groupEnd()`)
group('deep nesting', js`for (let i = 0; i < 12; i++) console.group(i); console.log('deep\nlines'); for (let i = 0; i < 12; i++) console.groupEnd(); console.log('out')`)
group('empty string entries', js`console.group('g'); console.log(''); console.log(); console.groupEnd()`)

// ---------------------------------------------------------------------------------------
const count = on('count')
count('default label', js`console.count(); console.count(); console.count(undefined)`)
count('named labels', js`console.count('a'); console.count('b'); console.count('a'); console.count('a')`)
count('labels are converted with String', js`console.count(1); console.count('1'); console.count(null); console.count({ toString() { return 'obj' } }); console.count('obj')`)
count('countReset', js`console.count('x'); console.count('x'); console.countReset('x'); console.count('x')`)
count('countReset default', js`console.count(); console.countReset(); console.count()`)
count('countReset of an unknown label warns', js`console.countReset('nope'); console.countReset()`)
count('countReset of a non-string label warns (Node looks it up unconverted)', js`console.count(1); console.countReset(1); console.count(1)`)
count('percent in a label prints raw', js`console.count('%s %d')`)

// ---------------------------------------------------------------------------------------
const assert = on('assert')
assert('truthy prints nothing', js`console.assert(true); console.assert(1, 'x'); console.assert('s', { a: 1 }); console.assert({}, 'obj'); console.assert([], 'arr')`)
assert('falsy without data', js`console.assert(false); console.assert(0); console.assert(); console.assert(null); console.assert('')`)
assert('message', js`console.assert(false, 'the message')`)
assert('format string', js`console.assert(false, '%s is %d', 'x', 42); console.assert(0, 'pct %% and %o', [1])`)
assert('non-string first data', js`console.assert(false, { a: 1 }); console.assert(false, 5, 6); console.assert(false, [1, 2], 'x')`)
assert('rest inspected', js`console.assert(false, 'values:', { a: [1, 2] }, 'raw', 3n)`)
assert('NaN and -0 are falsy', js`console.assert(NaN, 'nan'); console.assert(-0, 'negative zero'); console.assert(0n, 'zero bigint')`)

// ---------------------------------------------------------------------------------------
const time = on('time')
time('time and timeEnd', js`console.time(); console.timeEnd(); console.time('t'); console.timeEnd('t')`)
time('timeLog with data', js`console.time('t'); console.timeLog('t'); console.timeLog('t', 'extra', { x: [1] }, 2); console.timeLog('t', '%s', 'no format'); console.timeEnd('t')`)
time('duplicate label warns', js`console.time('d'); console.time('d'); console.timeEnd('d')`)
time('missing labels warn', js`console.timeEnd('missing'); console.timeLog('missing'); console.time('x'); console.timeEnd('x'); console.timeEnd('x')`)
time('labels are converted with String', js`console.time(1); console.timeEnd('1'); console.time(null); console.timeLog('null')`)
time('percent in a label', js`console.time('%d'); console.timeEnd('%d')`)

export const CONSOLE_CASES = cases
