/**
 * Corpus for the console.log differential test: every case is plain JavaScript
 * (ES2023, no host APIs) whose statements end in `return [arg0, arg1, ...]`, the
 * arguments of one `console.log` call. The expected text is Node's
 * `util.formatWithOptions({ depth: 4, maxArrayLength: 100, maxStringLength: 10000 }, ...args)`
 * for the same values created in Node's main realm.
 *
 * Sources are written with `String.raw` so that escapes such as `\n` reach the
 * evaluated JavaScript untouched. A backtick inside a source is spelled `\x60`.
 * Errors never print an engine stack: every error logged here had its `stack`
 * deleted or overwritten with a fixed string.
 */

export interface InspectCase {
  name: string
  /** statements ending in `return [arg0, arg1, ...]` (the console.log arguments), plain JavaScript valid in both Node 20 and QuickJS (ES2023), no TypeScript syntax, no imports, no Node or browser APIs beyond ECMAScript built-ins (no Buffer, no process, no require, no URL, no TextEncoder) */
  source: string
}

const js = String.raw
const c = (name: string, source: string): InspectCase => ({ name, source })

export const INSPECT_CASES: InspectCase[] = [
  // ---------------------------------------------------------------------------
  // Argument lists: no arguments, lone strings, strings followed by other values
  // ---------------------------------------------------------------------------
  c('args: none', js`return []`),
  c('args: lone string', js`return ['hello world']`),
  c('args: empty string then string', js`return ['', 'after empty']`),
  c('args: lone string with all quote kinds', js`return ['it\'s "quoted" and \x60ticked\x60']`),
  c('args: lone multi-line string', js`return ['line1\nline2\n\ttabbed line3']`),
  c('args: lone string with control characters', js`return ['nul:\u0000 bell:\u0007 esc:\u001b del:\u007f']`),
  c('args: lone string with specifiers is untouched', js`return ['100% sure: %s %d %i %f %j %o %O %c %%']`),
  c('args: string then non-strings', js`return ['value:', 1, true, null, undefined, { a: 1 }, [1]]`),
  c('args: several strings', js`return ['a', 'b', 'c d']`),
  c('args: non-string first then strings', js`return [1, 'two', 3]`),
  c('args: object first then quoted-looking string', js`return [{ a: 'x' }, 'raw \'str\' stays raw']`),
  c('args: many mixed kinds', js`return [null, undefined, 0, -0, 1n, 'str', Symbol('s'), [1, 'a'], { k: 'v' }, new Map([[1, 2]]), true]`),
  c('args: two empty strings', js`return ['', '']`),
  c('args: primitives only', js`return [1, -0, 1e21, NaN, -Infinity, 2n, true, false, null, undefined, 0.1 + 0.2, -1.5e-7, 123456789012345680000]`),
  c('args: symbols only', js`return [Symbol('x'), Symbol(), Symbol.iterator, Symbol('a b')]`),
  c('args: string then primitives', js`return ['n =', 5, -0, 7n, undefined]`),
  c('args: lone number', js`return [42]`),
  c('args: lone bigint', js`return [-12345678901234567890n]`),

  // ---------------------------------------------------------------------------
  // Strings inside containers: quote choice and escapes
  // ---------------------------------------------------------------------------
  c('string: single quotes by default', js`return [['plain', 'with space']]`),
  c('string: contains single quote -> double quotes', js`return [["it's"]]`),
  c('string: contains single and double -> backticks', js`return [['it\'s "x"']]`),
  c('string: contains all three quote kinds', js`return [['it\'s "x" \x60y\x60']]`),
  c('string: contains only double quotes', js`return [['say "hi"']]`),
  c('string: contains only backticks', js`return [['\x60cmd\x60 --flag']]`),
  c('string: newline tab carriage return', js`return [{ s: 'a\nb\tc\rd' }]`),
  c('string: nul and low control characters', js`return [['\u0000\u0001\b\f\v\u001f\u007f']]`),
  c('string: C1 controls and latin-1', js`return [['\u0080\u009f\u00a0\u00e9']]`),
  c('string: backslashes', js`return [['C:\\path\\to\\file', '\\']]`),
  c('string: lone surrogates', js`return [['\ud800', 'x\udfffy', '\ud83d\ude00', '\udc00\ud800']]`),
  c('string: emoji and CJK in object', js`return [{ e: '\ud83d\ude00 ok', c: '\u6f22\u5b57' }]`),
  c('string: empty and blank in array', js`return [['', ' ', '  ']]`),
  c('string: double-quoted with escapes', js`return [["it's\nnew\tline"]]`),
  c('string: line and paragraph separators', js`return [['a\u2028b\u2029c']]`),
  c('string: backtick-quoted with newline', js`return [{ q: 'a \'b\' "c"\n' }]`),
  c('string: escaped quote when all kinds present', js`return [{ s: '\'"\x60' }]`),

  // ---------------------------------------------------------------------------
  // Numbers
  // ---------------------------------------------------------------------------
  c('number: basic values', js`return [0, 1, -1, 3.14, -2.5]`),
  c('number: negative zero top level', js`return [-0]`),
  c('number: negative zero in array', js`return [[-0, 0, +0, -0.0]]`),
  c('number: NaN and infinities', js`return [NaN, Infinity, -Infinity]`),
  c('number: exponent forms', js`return [1e21, 1e-7, 123e-20, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, -1e21]`),
  c('number: float rounding', js`return [0.1 + 0.2, 1 / 3, 100 / 3, 0.000001, 1.5e-6]`),
  c('number: extremes', js`return [Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON, -Number.MAX_SAFE_INTEGER]`),
  c('number: no numeric separators', js`return [1000000, 1234567.891, [1000000, 9999999999, 123456789012]]`),
  c('number: in object', js`return [{ zero: -0, nan: NaN, inf: -Infinity, big: 1e300, tiny: 5e-324 }]`),

  // ---------------------------------------------------------------------------
  // BigInt
  // ---------------------------------------------------------------------------
  c('bigint: basic values', js`return [0n, 1n, -1n, 12345678901234567890n]`),
  c('bigint: in containers', js`return [[1n, -2n], { b: 2n ** 70n }]`),
  c('bigint: array in columns', js`const a = []; for (let i = 0n; i < 12n; i++) a.push(i * i * 1000n - 7n); return [a]`),

  // ---------------------------------------------------------------------------
  // Symbols
  // ---------------------------------------------------------------------------
  c('symbol: top level kinds', js`return [Symbol('a'), Symbol(), Symbol(''), Symbol.iterator, Symbol.for('reg')]`),
  c('symbol: in containers', js`return [[Symbol('x'), Symbol.asyncIterator], { s: Symbol('y'), e: Symbol() }]`),
  c('symbol: symbol keys', js`const o = { a: 1 }; o[Symbol('k')] = 2; o[Symbol()] = 3; o[Symbol.for('reg')] = 4; o[Symbol.iterator] = 5; return [o]`),
  c('symbol: description with spaces', js`return [Symbol('a b'), { [Symbol('with space')]: 1 }]`),
  c('symbol: non-enumerable symbol key hidden', js`const o = { visible: 1 }; Object.defineProperty(o, Symbol('hidden'), { value: 2, enumerable: false }); return [o]`),

  // ---------------------------------------------------------------------------
  // undefined, null, booleans
  // ---------------------------------------------------------------------------
  c('primitive: undefined null booleans', js`return [undefined, null, true, false]`),
  c('primitive: in array', js`return [[undefined, null, true, false]]`),
  c('primitive: in object', js`return [{ u: undefined, n: null, t: true, f: false }]`),
  c('primitive: lone undefined', js`return [undefined]`),
  c('primitive: lone null', js`return [null]`),

  // ---------------------------------------------------------------------------
  // Format specifiers in a first string argument
  // ---------------------------------------------------------------------------
  c('format: %s basic', js`return ['%s and %s', 'a', 'b']`),
  c('format: %s too few args', js`return ['%s and %s', 'only']`),
  c('format: %s too many args', js`return ['%s!', 'a', 'b', 3, { c: 4 }]`),
  c('format: %s numbers and bigint', js`return ['%s %s %s %s %s', -0, 1.5, NaN, 5n, 1e21]`),
  c('format: %s symbol undefined null boolean', js`return ['%s|%s|%s|%s', Symbol('s'), undefined, null, true]`),
  c('format: %s nested object uses depth 0', js`return ['obj=%s', { a: { b: 1 }, c: [1, [2]], d: 'str' }]`),
  c('format: %s nested array uses depth 0', js`return ['arr=%s', [1, [2, [3]], 'x']]`),
  c('format: %s custom toString', js`class P { toString() { return 'P!' } } return ['%s %s', new P(), { toString() { return 'own' } }]`),
  c('format: %s error without stack', js`const e = new Error('bad'); delete e.stack; return ['got %s', e]`),
  c('format: %s map and set', js`return ['%s %s', new Map([['a', 1]]), new Set([1])]`),
  c('format: %s null-prototype object', js`return ['%s', Object.assign(Object.create(null), { a: 1 })]`),
  c('format: %s string with quotes stays raw', js`return ['%s', "it's \"raw\""]`),
  c('format: %s class instance', js`class Point { constructor() { this.x = 1; this.y = 2 } } return ['p=%s', new Point()]`),
  c('format: %d basic', js`return ['%d %d %d', 42, '42', 4.5]`),
  c('format: %d odd values', js`return ['%d|%d|%d|%d|%d|%d|%d', -0, {}, [5], null, undefined, '', true]`),
  c('format: %d bigint and symbol', js`return ['%d %d', 5n, Symbol('x')]`),
  c('format: %i basic', js`return ['%i %i %i %i', 42.9, -3.7, '0x1f', '12px']`),
  c('format: %i odd values', js`return ['%i|%i|%i|%i|%i', -0, 5n, Symbol('x'), {}, '-0']`),
  c('format: %f values', js`return ['%f %f %f %f %f %f', 1.5, '2.25abc', -0, 5n, Symbol('y'), 'abc']`),
  c('format: %j object', js`return ['%j', { a: [1, 'two', null], b: undefined, c: true }]`),
  c('format: %j odd values', js`return ['%j %j %j %j', 'str', undefined, 42, [undefined, function () {}]]`),
  c('format: %j circular', js`const o = { n: 1 }; o.self = o; return ['%j', o]`),
  c('format: %j toJSON then extra date', js`return ['%j', { toJSON() { return 'custom' } }, new Date(0)]`),
  c('format: %o object', js`return ['%o', { a: 1, b: { c: [1, 2] } }]`),
  c('format: %o nested beyond depth', js`return ['%o', { a: { b: { c: { d: { e: { f: 1 } } } } }, list: ['x'] }]`),
  c('format: %o shows non-enumerable', js`const o = { a: 1 }; Object.defineProperty(o, 'hidden', { value: 2, enumerable: false }); return ['%o', o]`),
  c('format: %o primitives', js`return ['%o %o %o', 'str', 5n, -0]`),
  c('format: %O object', js`return ['%O', { a: 1, b: { c: { d: { e: { f: 1 } } } } }]`),
  c('format: %O primitives', js`return ['%O %O %O', 'str', 5, null]`),
  c('format: %c consumes css', js`return ['%cstyled%c text', 'color: red', 'font-weight: bold']`),
  c('format: %% with arg', js`return ['100%% done %s', 'ok']`),
  c('format: %% alone with extra arg', js`return ['%%', 1]`),
  c('format: unknown specifiers kept', js`return ['%x %y %s %5d', 'a']`),
  c('format: trailing percent with extra arg', js`return ['50%', 1]`),
  c('format: adjacent specifiers', js`return ['%s%s%d', 'a', 'b', 3]`),
  c('format: %d with extra mixed args', js`return ['%d', 1, 'two', [3], Symbol('four')]`),
  c('format: escaped %%s', js`return ['%%s %s', 'x']`),
  c('format: no specifier with extra args', js`return ['plain', 'more', 2, 'x']`),
  c('format: specifier at end with no arg', js`return ['end %', 'x', '%s']`),
  c('format: %s with empty string and extra object', js`return ['[%s]', '', { k: [1, 2] }]`),

  // ---------------------------------------------------------------------------
  // Plain objects
  // ---------------------------------------------------------------------------
  c('object: empty', js`return [{}]`),
  c('object: simple', js`return [{ a: 1, b: 'two', c: true }]`),
  c('object: nested two levels', js`return [{ a: { b: { c: 1 } } }]`),
  c('object: nested three levels', js`return [{ a: { b: { c: { d: 1 } } } }]`),
  c('object: nested six levels', js`return [{ l1: { l2: { l3: { l4: { l5: { l6: 'deep' } } } } } }]`),
  c('object: exactly depth 4', js`return [{ a: { b: { c: { d: { leaf: 1 } } } } }]`),
  c('object: exactly depth 5', js`return [{ a: { b: { c: { d: { e: { leaf: 1 } } } } } }]`),
  c('object: empty object beyond depth', js`return [{ a: { b: { c: { d: { e: {}, f: [] } } } } }]`),
  c('object: keys needing quotes', js`return [{ 'a-b': 1, '1a': 2, 'with space': 3, '': 4, valid_id: 5, $dollar: 6, '\u00fcn\u00ef': 7, _u: 8 }]`),
  c('object: integer-like keys', js`return [{ b: 1, 2: 'two', 1: 'one', '01': 'zero-one', '-1': 'neg', 1.5: 'frac' }]`),
  c('object: keys containing quotes', js`return [{ "it's": 1, 'say "x"': 2, 'both \'"': 3 }]`),
  c('object: own __proto__ key', js`return [JSON.parse('{"__proto__": {"a": 1}, "b": 2}')]`),
  c('object: seven short entries', js`return [{ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 }]`),
  c('object: twenty-six short entries', js`const o = {}; for (let i = 0; i < 26; i++) o[String.fromCharCode(97 + i)] = i; return [o]`),
  c('object: long keys break lines', js`const o = {}; for (let i = 0; i < 30; i++) o['property_name_' + i] = i * 3; return [o]`),
  c('object: long string value', js`return [{ text: 'x'.repeat(90) }]`),
  c('object: four entries just too long', js`return [{ alpha: 'aaaaaaaaaa', beta: 'bbbbbbbbbb', gamma: 'cccccccccc', de: 'd' }]`),
  c('object: single line at the width limit', js`return [{ alpha: 'aaaaaaaaaaaaaaaaa', beta: 'bbbbbbbbbbbbbbbbb', gamma: 'ccc' }]`),
  c('object: single line one past the width limit', js`return [{ alpha: 'aaaaaaaaaaaaaaaaa', beta: 'bbbbbbbbbbbbbbbbb', gamma: 'cccc' }]`),
  c('object: nested single line at the width limit', js`return [{ outer: { alpha: 'aaaaaaaaaaaaaaa', beta: 'bbbbbbbbbbbbbbb', gamma: 'ccccc' } }]`),
  c('object: nested single line one past the width limit', js`return [{ outer: { alpha: 'aaaaaaaaaaaaaaa', beta: 'bbbbbbbbbbbbbbb', gamma: 'cccccc' } }]`),
  c('object: four entries of medium values', js`return [{ first: 'value number one', second: 'value number two', third: 'value number three', fourth: 4 }]`),
  c('object: mixed nested record', js`return [{ user: { name: 'Ann', tags: ['a', 'b'], address: { city: 'X', geo: { lat: 1.5, lng: -2 } } }, ok: true }]`),
  c('object: non-enumerable hidden', js`const o = { shown: 1 }; Object.defineProperty(o, 'hidden', { value: 2, enumerable: false }); return [o]`),
  c('object: array of three records', js`return [[{ id: 1, name: 'a' }, { id: 2, name: 'b' }, { id: 3, name: 'c' }]]`),
  c('object: array of eight records', js`const a = []; for (let i = 0; i < 8; i++) a.push({ id: i, label: 'item-' + i, active: i % 2 === 0 }); return [a]`),
  c('object: function values', js`return [{ f() {}, g: function () {}, h: () => 1, i: function named() {} }]`),
  c('object: empty containers as values', js`return [{ a: [], b: {}, c: new Map(), d: new Set(), e: '' }]`),
  c('object: frozen', js`return [Object.freeze({ frozen: true, list: Object.freeze([1]) })]`),
  c('object: array-like', js`return [{ length: 2, 0: 'a', 1: 'b' }]`),
  c('object: own constructor property that is not a function', js`return [{ constructor: 'not a function', v: 1 }]`),
  c('object: inherits from plain object', js`const o = Object.create({ inherited: 1 }); o.own = 2; return [o]`),
  c('object: nested objects exceed width', js`return [{ meta: { id: 'abc-123', created: 'yesterday', owner: 'someone' }, data: { rows: [1, 2, 3], total: 3 } }]`),

  // ---------------------------------------------------------------------------
  // Arrays
  // ---------------------------------------------------------------------------
  c('array: empty', js`return [[]]`),
  c('array: simple mixed', js`return [[1, 'a', true, null, undefined]]`),
  c('array: one leading hole', js`return [[, 1]]`),
  c('array: hole run in middle', js`const a = [1]; a[5] = 2; return [a]`),
  c('array: holes at end', js`const a = [1, 2]; a.length = 5; return [a]`),
  c('array: one hole at end', js`const a = ['x']; a.length = 2; return [a]`),
  c('array: all holes', js`return [new Array(3)]`),
  c('array: 250 holes', js`return [new Array(250)]`),
  c('array: every third index set', js`const a = []; for (let i = 0; i < 300; i += 3) a[i] = i; return [a]`),
  c('array: 101 items', js`return [Array.from({ length: 101 }, (_, i) => i)]`),
  c('array: 250 items', js`return [Array.from({ length: 250 }, (_, i) => i % 10)]`),
  c('array: seven numbers', js`return [[1, 2, 3, 4, 5, 6, 7]]`),
  c('array: numbers of varied width', js`return [[1, 22, 333, 4444, 5, 66, 777, 8888, 9, 10]]`),
  c('array: thirty squares', js`return [Array.from({ length: 30 }, (_, i) => i * i)]`),
  c('array: eight floats on one line', js`return [[0.1, 1.25, -3.5, 100, 2e-7, NaN, -0, Infinity]]`),
  c('array: short strings in columns', js`return [['a', 'bb', 'ccc', 'dddd', 'e', 'ff', 'ggg', 'hhhh', 'i']]`),
  c('array: words of varied length', js`return ['the quick brown fox jumps over the lazy dog while seven wizards quietly juggle extraordinarily heavy cubes at noon'.split(' ')]`),
  c('array: eight strings of twenty chars', js`return [Array.from({ length: 8 }, (_, i) => String(i).repeat(20))]`),
  c('array: mixed strings and numbers on one line', js`return [[1, 'two', 3, 'four', 5, 'six', 7, null, undefined]]`),
  c('array: mixed values grouped in columns', js`return [Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? 'str' + i : i % 3 === 1 ? i * 11 : null))]`),
  c('array: thirty floats in columns', js`return [Array.from({ length: 30 }, (_, i) => i / 8)]`),
  c('array: six strings at the width limit', js`return [['aaaaaaaa', 'bbbbbbbb', 'cccccccc', 'dddddddd', 'eeeeeeee', 'fffff']]`),
  c('array: six strings one past the width limit', js`return [['aaaaaaaa', 'bbbbbbbb', 'cccccccc', 'dddddddd', 'eeeeeeee', 'ffffff']]`),
  c('array: wide CJK strings in columns', js`return [['\u6f22', '\u5b57\u5b57', 'abc', 'x', '\u65e5\u672c\u8a9e', '\u00e9', 'yy', 'zz']]`),
  c('array: extra non-index properties', js`const a = [1, 2]; a.foo = 'bar'; a['x-y'] = 1; return [a]`),
  c('array: hole plus extra property', js`const a = [, 1]; a.k = 'v'; return [a]`),
  c('array: negative and fractional keys', js`const a = [1]; a[-1] = 'neg'; a[1.5] = 'frac'; return [a]`),
  c('array: nested seven levels', js`return [[[[[[[1]]]]]]]`),
  c('array: nested mixed with objects', js`return [[1, [2, { a: [3, { b: [4, { c: 5 }] }] }]]]`),
  c('array: eight pairs', js`const a = []; for (let i = 0; i < 8; i++) a.push([i, i * 2]); return [a]`),
  c('array: subclass', js`class MyArr extends Array {} return [MyArr.from([1, 2, 3])]`),
  c('array: Object.create(Array.prototype)', js`return [Object.create(Array.prototype)]`),
  c('array: null prototype', js`const a = [1, 2]; Object.setPrototypeOf(a, null); return [a]`),
  c('array: 120 short strings', js`return [Array.from({ length: 120 }, (_, i) => 'x' + i)]`),
  c('array: long strings', js`return [['x'.repeat(50), 'y'.repeat(50)]]`),
  c('array: numbers in nested object', js`return [{ nums: Array.from({ length: 20 }, (_, i) => i * 7), name: 'seq' }]`),
  c('array: 26 objects with short entries', js`return [Array.from({ length: 26 }, (_, i) => ({ i }))]`),
  c('array: large integers on one line', js`return [[123456789, -1, 42, 1000000000000, 7, 0, -999, 31337]]`),

  // ---------------------------------------------------------------------------
  // Map and Set
  // ---------------------------------------------------------------------------
  c('map: empty', js`return [new Map()]`),
  c('map: basic', js`return [new Map([['a', 1], ['b', { c: 2 }]])]`),
  c('map: object and odd keys', js`return [new Map([[{ k: 1 }, 'obj'], [[1, 2], 'arr'], [null, undefined], [NaN, -0], [Symbol('s'), 1n]])]`),
  c('map: nested map and set', js`return [new Map([['inner', new Map([['x', new Set([1, 2])]])]])]`),
  c('map: 150 entries', js`const m = new Map(); for (let i = 0; i < 150; i++) m.set(i, 'v' + i); return [m]`),
  c('map: long entries break lines', js`return [new Map([['first key', 'a fairly long value string'], ['second key', 'another long value string'], ['third', 3]])]`),
  c('map: subclass', js`class Registry extends Map {} return [new Registry([[1, 2]])]`),
  c('map: extra property', js`const m = new Map([['k', 'v']]); m.note = 'n'; return [m]`),
  c('set: empty', js`return [new Set()]`),
  c('set: basic', js`return [new Set([1, 'two', { three: 3 }, [4]])]`),
  c('set: 150 entries', js`return [new Set(Array.from({ length: 150 }, (_, i) => i))]`),
  c('set: seven short entries', js`return [new Set([1, 2, 3, 4, 5, 6, 7])]`),
  c('set: extra property', js`const s = new Set([1]); s.tag = 'x'; return [s]`),
  c('set: subclass', js`class Tags extends Set {} return [new Tags(['a', 'b'])]`),
  c('set: nested sets', js`return [new Set([new Set([new Set([1])]), new Set()])]`),
  c('map: in object beyond depth', js`return [{ a: { b: { c: { d: { m: new Map([[1, 2]]), s: new Set([1]) } } } } }]`),

  // ---------------------------------------------------------------------------
  // WeakMap and WeakSet
  // ---------------------------------------------------------------------------
  c('weak: WeakMap', js`const k = {}; const w = new WeakMap([[k, 1]]); return [w]`),
  c('weak: WeakSet', js`const k = {}; return [new WeakSet([k])]`),
  c('weak: in object', js`return [{ wm: new WeakMap(), ws: new WeakSet() }]`),
  c('weak: WeakMap with extra property', js`const w = new WeakMap(); w.label = 'cache'; return [w]`),

  // ---------------------------------------------------------------------------
  // Date
  // ---------------------------------------------------------------------------
  c('date: epoch', js`return [new Date(0)]`),
  c('date: specific UTC instant', js`return [new Date(Date.UTC(2024, 1, 29, 13, 45, 30, 123))]`),
  c('date: invalid', js`return [new Date(NaN)]`),
  c('date: in object', js`return [{ when: new Date(86400000), bad: new Date('nope') }]`),
  c('date: extra property', js`const d = new Date(0); d.label = 'epoch'; return [d]`),
  c('date: subclass', js`class Stamp extends Date {} return [new Stamp(0)]`),
  c('date: extreme years', js`return [[new Date(-62198755200000), new Date(8.64e15), new Date(-8.64e15)]]`),

  // ---------------------------------------------------------------------------
  // RegExp
  // ---------------------------------------------------------------------------
  c('regexp: literals with flags', js`return [/ab+c/, /x/gi, /^\d{3}$/m]`),
  c('regexp: all flags', js`return [/a/dgimsuy]`),
  c('regexp: escaped slash and empty', js`return [new RegExp('a/b'), new RegExp('')]`),
  c('regexp: extra property', js`const r = /x/g; r.note = 'hi'; return [r]`),
  c('regexp: in containers after use', js`const r = /o/g; r.exec('foo'); return [{ r, list: [/a|b/, /[\]\\]/] }]`),
  c('regexp: subclass', js`class MyRe extends RegExp {} return [new MyRe('z', 'g')]`),

  // ---------------------------------------------------------------------------
  // Errors (stack always deleted or overwritten with fixed text)
  // ---------------------------------------------------------------------------
  c('error: stack overwritten', js`const e = new Error('boom'); e.stack = 'Error: boom\n    at here (file.js:1:1)'; return [e]`),
  c('error: stack overwritten with three frames', js`const e = new Error('boom'); e.stack = 'Error: boom\n    at a (file.js:1:1)\n    at b (file.js:2:2)\n    at c (file.js:3:3)'; return [e]`),
  c('error: stack deleted', js`const e = new Error('boom'); delete e.stack; return [e]`),
  c('error: stack without frames', js`const e = new Error('boom'); e.stack = 'Error: boom (no frames)'; return [e]`),
  c('error: extra own properties', js`const e = new Error('boom'); e.stack = 'Error: boom\n    at here (file.js:1:1)'; e.code = 'E_BOOM'; e.details = { retry: false }; return [e]`),
  c('error: extra property without stack', js`const e = new Error('x'); delete e.stack; e.status = 404; return [e]`),
  c('error: cause is error', js`const inner = new Error('inner'); delete inner.stack; const e = new Error('outer', { cause: inner }); delete e.stack; return [e]`),
  c('error: cause is string', js`const e = new Error('outer', { cause: 'because' }); e.stack = 'Error: outer\n    at here (file.js:1:1)'; return [e]`),
  c('error: cause is object', js`const e = new Error('outer', { cause: { code: 1, path: ['a'] } }); delete e.stack; return [e]`),
  c('error: cause is undefined', js`const e = new Error('x', { cause: undefined }); delete e.stack; return [e]`),
  c('error: cause with matching frames', js`const frames = '\n    at a (file.js:1:1)\n    at b (file.js:2:1)\n    at c (file.js:3:1)\n    at d (file.js:4:1)'; const cause = new Error('low'); cause.stack = 'Error: low\n    at low (file.js:9:9)' + frames; const e = new Error('high', { cause }); e.stack = 'Error: high\n    at high (file.js:8:8)' + frames; return [e]`),
  c('error: TypeError', js`const e = new TypeError('bad type'); delete e.stack; return [e]`),
  c('error: RangeError with stack', js`const e = new RangeError('out of range'); e.stack = 'RangeError: out of range\n    at check (file.js:10:5)'; return [e]`),
  c('error: SyntaxError and EvalError in array', js`const a = new SyntaxError('s'); delete a.stack; const b = new EvalError('e'); delete b.stack; return [[a, b]]`),
  c('error: custom class with own name', js`class ValidationError extends Error { constructor(m) { super(m); this.name = 'ValidationError' } } const e = new ValidationError('bad input'); e.stack = 'ValidationError: bad input\n    at check (file.js:3:7)'; return [e]`),
  c('error: custom class inheriting name', js`class HttpError extends Error {} const e = new HttpError('nope'); e.stack = 'Error: nope\n    at fetch (file.js:2:2)'; return [e]`),
  c('error: custom class with prototype name', js`class DbError extends Error {} DbError.prototype.name = 'DbError'; const e = new DbError('down'); delete e.stack; return [e]`),
  c('error: TypeError subclass', js`class StrictTypeError extends TypeError {} const e = new StrictTypeError('strict'); e.stack = 'TypeError: strict\n    at f (file.js:1:1)'; return [e]`),
  c('error: name mismatch', js`const e = new Error('x'); e.name = 'Custom'; e.stack = 'Error: x\n    at f (file.js:1:1)'; return [e]`),
  c('error: AggregateError', js`const a = new Error('a'); delete a.stack; const b = new TypeError('b'); delete b.stack; const e = new AggregateError([a, b], 'many'); e.stack = 'AggregateError: many\n    at here (file.js:1:1)'; return [e]`),
  c('error: in array with stacks', js`const a = new Error('one'); a.stack = 'Error: one\n    at f (file.js:1:1)'; const b = new Error('two'); b.stack = 'Error: two\n    at g (file.js:2:2)'; return [[a, b]]`),
  c('error: nested in object', js`const e = new Error('deep'); e.stack = 'Error: deep\n    at f (file.js:1:1)\n    at g (file.js:2:2)'; return [{ result: { ok: false, error: e } }]`),
  c('error: empty message', js`const e = new Error(); delete e.stack; return [e]`),
  c('error: multi-line message without stack', js`const e = new Error('line1\nline2'); delete e.stack; return [e]`),
  c('error: stack not starting with name', js`const e = new Error('x'); e.stack = 'totally custom stack text\n    at x (file.js:1:1)'; return [e]`),
  c('error: null prototype', js`const e = new Error('orphan'); e.stack = 'Error: orphan\n    at f (file.js:1:1)'; Object.setPrototypeOf(e, null); return [e]`),
  c('error: beyond depth', js`const e = new Error('far'); delete e.stack; return [{ a: { b: { c: { d: { e } } } } }]`),
  c('error: error-like plain object', js`return [{ name: 'Error', message: 'fake', stack: 'Error: fake\n    at f (file.js:1:1)' }]`),
  c('error: string then error', js`const e = new Error('failed'); delete e.stack; return ['request failed:', e]`),

  // ---------------------------------------------------------------------------
  // Functions and classes
  // ---------------------------------------------------------------------------
  c('function: named declaration', js`function f() {} return [f]`),
  c('function: anonymous expression and arrow', js`return [function () {}, () => {}]`),
  c('function: arrow assigned to const', js`const add = (a, b) => a + b; return [add]`),
  c('function: class', js`class A {} return [A]`),
  c('function: class extends', js`class A {} class B extends A {} return [B]`),
  c('function: anonymous class', js`return [class {}]`),
  c('function: class expression assigned to const', js`const K = class {}; return [K]`),
  c('function: class extends null', js`class N extends null {} return [N]`),
  c('function: class with static fields', js`class S { static count = 2; static label = 'x'; static method() {} } return [S]`),
  c('function: class extends built-ins', js`class E extends Error {} class M extends Map {} return [E, M]`),
  c('function: async', js`async function f() {} return [f]`),
  c('function: async arrow', js`const fetchIt = async () => {}; return [fetchIt]`),
  c('function: generator', js`function* g() {} return [g]`),
  c('function: async generator', js`async function* g() {} return [g]`),
  c('function: bound', js`function f() {} return [f.bind(null)]`),
  c('function: bound anonymous and twice bound', js`return [(function () {}).bind(null), (() => 1).bind(null).bind(null)]`),
  c('function: bound class', js`class A {} return [A.bind(null)]`),
  c('function: with properties', js`function f() {} f.x = 1; f.nested = { y: [2] }; return [f]`),
  c('function: methods in object', js`const getter = Object.getOwnPropertyDescriptor({ get x() { return 1 } }, 'x').get; return [{ m() {}, [Symbol('s')]() {}, getter }]`),
  c('function: async and generator methods', js`return [{ async am() {}, *gm() {}, async *agm() {} }]`),
  c('function: null prototype', js`function f() {} Object.setPrototypeOf(f, null); return [f]`),
  c('function: renamed', js`function f() {} Object.defineProperty(f, 'name', { value: 'renamed' }); return [f]`),
  c('function: built-ins', js`return [[parseInt, Array.prototype.map, Symbol, Object.keys]]`),
  c('function: in array and nested', js`function outer() {} return [[outer, { inner: outer, list: [() => 0] }]]`),

  // ---------------------------------------------------------------------------
  // Class instances, prototypes and toStringTag
  // ---------------------------------------------------------------------------
  c('instance: empty class', js`class A {} return [new A()]`),
  c('instance: constructor-assigned fields', js`class B { constructor() { this.x = 1; this.y = 'y' } } return [new B()]`),
  c('instance: class fields private and static hidden', js`class C { a = 1; #priv = 2; static s = 3; method() {} } return [new C()]`),
  c('instance: anonymous class', js`return [new (class { constructor() { this.z = 1 } })()]`),
  c('instance: linked list beyond depth', js`class ListNode { constructor(v, next) { this.v = v; this.next = next } } let n = null; for (let i = 6; i > 0; i--) n = new ListNode(i, n); return [n]`),
  c('instance: subclass instance', js`class Animal { constructor(n) { this.name = n } } class Dog extends Animal { constructor(n) { super(n); this.good = true } } return [new Dog('rex')]`),
  c('instance: null prototype empty', js`return [Object.create(null)]`),
  c('instance: null prototype with props', js`return [Object.assign(Object.create(null), { a: 1, b: { c: 2 } })]`),
  c('instance: null prototype nested beyond depth', js`return [{ a: { b: { c: { d: { e: Object.assign(Object.create(null), { x: 1 }) } } } } }]`),
  c('instance: prototype chain ending in null-prototype object', js`return [Object.create(Object.create(null))]`),
  c('instance: constructor deleted', js`class A { constructor() { this.v = 1 } } delete A.prototype.constructor; return [new A()]`),
  c('instance: own enumerable toStringTag', js`return [{ [Symbol.toStringTag]: 'Foo', a: 1 }]`),
  c('instance: own non-enumerable toStringTag', js`const o = { a: 1 }; Object.defineProperty(o, Symbol.toStringTag, { value: 'Foo' }); return [o]`),
  c('instance: empty object with toStringTag', js`const o = {}; Object.defineProperty(o, Symbol.toStringTag, { value: 'Empty' }); return [o]`),
  c('instance: class with toStringTag getter', js`class Widget { constructor() { this.id = 7 } get [Symbol.toStringTag]() { return 'W' } } return [new Widget()]`),
  c('instance: toStringTag equal to class name', js`class Foo { get [Symbol.toStringTag]() { return 'Foo' } } return [new Foo(), 'tagged']`),
  c('instance: null prototype with toStringTag', js`const o = Object.create(null); Object.defineProperty(o, Symbol.toStringTag, { value: 'Bar' }); o.x = 1; return [o]`),
  c('instance: own method and inherited method', js`class A { m() {} } const a = new A(); a.own = 1; return [a]`),
  c('instance: Object.create of Date', js`return [Object.create(Date.prototype)]`),
  c('instance: plain object with Map prototype', js`return [Object.setPrototypeOf({ a: 1 }, Map.prototype)]`),
  c('instance: class prototype object', js`class G { get x() { return 1 } set x(v) {} } return [new G(), G.prototype]`),

  // ---------------------------------------------------------------------------
  // Typed arrays, ArrayBuffer, DataView
  // ---------------------------------------------------------------------------
  c('typed: Uint8Array', js`return [new Uint8Array([1, 2, 3])]`),
  c('typed: empty', js`return [new Uint8Array(0), new Float32Array()]`),
  c('typed: Float64Array', js`return [new Float64Array([0.5, -0, NaN, Infinity, 1e21])]`),
  c('typed: Float32Array precision', js`return [new Float32Array([0.1, 1.5, -2.25])]`),
  c('typed: BigInt64Array and BigUint64Array', js`return [new BigInt64Array([1n, -2n, 9007199254740993n]), new BigUint64Array([2n ** 64n - 1n])]`),
  c('typed: integer kinds', js`return [new Int8Array([-1, 127, 128]), new Int16Array([-300]), new Int32Array([-5]), new Uint16Array([65535]), new Uint32Array([-1]), new Uint8ClampedArray([300, -5, 1.5])]`),
  c('typed: 150 bytes', js`return [Uint8Array.from({ length: 150 }, (_, i) => i)]`),
  c('typed: sixteen Int16 values in columns', js`return [Int16Array.from({ length: 16 }, (_, i) => (i - 8) * 1000)]`),
  c('typed: extra property', js`const t = new Uint8Array(2); t.tag = 'x'; return [t]`),
  c('typed: subarray view', js`return [new Uint8Array([1, 2, 3, 4]).subarray(1, 3)]`),
  c('typed: ArrayBuffer', js`return [new Uint8Array([0, 1]).buffer]`),
  c('typed: empty ArrayBuffer', js`return [new ArrayBuffer(0)]`),
  c('typed: ArrayBuffer of 120 bytes', js`return [new ArrayBuffer(120)]`),
  c('typed: ArrayBuffer hex values', js`return [new Uint8Array([255, 16, 171, 205, 9]).buffer]`),
  c('typed: DataView', js`const b = new Uint8Array([1, 2, 3]).buffer; return [new DataView(b, 1)]`),
  c('typed: in object', js`return [{ bytes: new Uint8Array([1]), view: new DataView(new ArrayBuffer(1)) }]`),
  c('typed: beyond depth', js`return [{ a: { b: { c: { d: { t: new Uint8Array([1]), b: new ArrayBuffer(1) } } } } }]`),

  // ---------------------------------------------------------------------------
  // Getters and setters
  // ---------------------------------------------------------------------------
  c('accessor: getter', js`return [{ get a() { return 1 } }]`),
  c('accessor: setter', js`return [{ set b(v) {} }]`),
  c('accessor: getter and setter', js`return [{ get c() { return 1 }, set c(v) {}, d: 2 }]`),
  c('accessor: enumerable getter on instance', js`class T { constructor() { Object.defineProperty(this, 'v', { get() { return 1 }, enumerable: true }); this.w = 2 } } return [new T()]`),
  c('accessor: enumerable getter on class', js`class H {} Object.defineProperty(H, 'x', { get() { return 1 }, set(v) {}, enumerable: true }); return [H]`),
  c('accessor: symbol-keyed getter', js`return [{ get [Symbol('s')]() { return 1 } }]`),
  c('accessor: getters in nested array', js`return [[{ get a() { return 1 } }, [{ set b(v) {} }]]]`),

  // ---------------------------------------------------------------------------
  // Circular references
  // ---------------------------------------------------------------------------
  c('circular: self', js`const o = {}; o.self = o; return [o]`),
  c('circular: two separate cycles', js`const a = { name: 'a' }; a.a = a; const b = { name: 'b' }; b.b = b; return [{ a, b }]`),
  c('circular: array', js`const a = [1]; a.push(a); return [a]`),
  c('circular: map key and value', js`const m = new Map(); m.set('me', m); m.set(m, 'key'); return [m]`),
  c('circular: set', js`const s = new Set([1]); s.add(s); return [s]`),
  c('circular: deep back-reference', js`const o = { a: { b: { c: {} } } }; o.a.b.c.root = o; return [o]`),
  c('circular: mutual', js`const a = { n: 'a' }; const b = { n: 'b' }; a.b = b; b.a = a; return [a]`),
  c('circular: inner cycle', js`const outer = { inner: {} }; outer.inner.self = outer.inner; return [outer]`),
  c('circular: shared non-circular reference', js`const shared = { s: 1 }; return [{ x: shared, y: shared, z: [shared] }]`),
  c('circular: same cyclic object twice', js`const a = { k: 1 }; a.a = a; return [a, a]`),
  c('circular: class instance', js`class TreeNode { constructor() { this.parent = this; this.children = [] } } return [new TreeNode()]`),
  c('circular: numbering order', js`const a = { name: 'a' }; const b = { name: 'b', a }; a.b = b; b.self = b; return [a]`),
  c('circular: through array in map', js`const m = new Map(); const list = [m]; m.set('list', list); return [{ m }]`),
  c('circular: through object in array', js`const a = []; const o = { a }; a.push(o, o); return [a]`),

  // ---------------------------------------------------------------------------
  // Boxed primitives
  // ---------------------------------------------------------------------------
  c('boxed: Number', js`return [new Number(3), new Number(-0), new Number(NaN)]`),
  c('boxed: String', js`return [new String('ab'), new String('')]`),
  c('boxed: Boolean', js`return [new Boolean(true), new Boolean(false)]`),
  c('boxed: Symbol', js`return [Object(Symbol('a')), Object(Symbol())]`),
  c('boxed: BigInt', js`return [Object(5n)]`),
  c('boxed: Number with property', js`const n = new Number(3); n.unit = 'kg'; return [n]`),
  c('boxed: String with quote', js`return [new String("it's")]`),
  c('boxed: String with property', js`const s = new String('hi'); s.x = 1; return [s]`),
  c('boxed: all in array', js`return [[new Number(1), new String('s'), new Boolean(false), Object(Symbol('t')), Object(2n)]]`),

  // ---------------------------------------------------------------------------
  // Promises
  // ---------------------------------------------------------------------------
  c('promise: resolved', js`return [Promise.resolve(1)]`),
  c('promise: pending', js`return [new Promise(() => {})]`),
  c('promise: rejected', js`const p = Promise.reject(2); p.catch(() => {}); return [p]`),
  c('promise: resolved with object', js`return [Promise.resolve({ a: [1, 2] })]`),
  c('promise: rejected with error', js`const e = new Error('nope'); delete e.stack; const p = Promise.reject(e); p.catch(() => {}); return [p]`),
  c('promise: resolved with promise is pending', js`return [{ outer: new Promise((r) => r(Promise.resolve(1))) }]`),
  c('promise: extra property', js`const p = Promise.resolve('x'); p.tag = 1; return [p]`),
  c('promise: resolved undefined', js`return [Promise.resolve()]`),
  c('promise: beyond depth', js`return [{ a: { b: { c: { d: { p: Promise.resolve(1) } } } } }]`),

  // ---------------------------------------------------------------------------
  // Long strings
  // ---------------------------------------------------------------------------
  c('long string: 10005 chars top level is raw', js`return ['a'.repeat(10005)]`),
  c('long string: 10005 chars in array', js`return [['a'.repeat(10005)]]`),
  c('long string: exactly 10000 chars in array', js`return [['b'.repeat(10000)]]`),
  c('long string: 20000 chars in object', js`return [{ big: 'x'.repeat(20000) }]`),
  c('long string: multi-line in object', js`return [{ text: 'This is the first line of a longer text block\nand this is the second line of that block\nthird line here\n' }]`),
  c('long string: short multi-line in object', js`return [{ text: 'one\ntwo\nthree' }]`),
  c('long string: multi-line in array', js`return [['first line of a string that is long enough to be split by inspect\nsecond line of it\n', 'short']]`),
  c('long string: multi-line nested deeper', js`return [{ a: { b: [{ msg: 'alpha alpha alpha alpha alpha alpha alpha\nbeta beta beta beta beta beta beta beta\ngamma' }] } }]`),
  c('long string: single long line in nested array', js`return [[['word '.repeat(30)]]]`),

  // ---------------------------------------------------------------------------
  // Depth and mixed nesting
  // ---------------------------------------------------------------------------
  c('depth: arrays and objects alternating', js`return [{ a: [{ b: [{ c: [1] }] }] }]`),
  c('depth: map at depth 5', js`return [[[[[[new Map([[1, 2]])]]]]]]`),
  c('depth: set at depth 5', js`return [[[[[[new Set([1])]]]]]]`),
  c('depth: instance at depth 5', js`class Leaf { constructor() { this.v = 1 } } return [{ a: { b: { c: { d: { leaf: new Leaf() } } } } }]`),
  c('depth: config document', js`return [{ server: { host: 'localhost', port: 8080, tls: { enabled: false, cert: null } }, routes: [{ path: '/', methods: ['GET', 'HEAD'], handler: { name: 'index', options: { cache: { ttl: 60 } } } }], features: new Set(['a', 'b']) }]`),
  c('depth: api response', js`return [{ status: 200, data: { items: [{ id: 1, tags: ['x'], owner: { id: 9, roles: ['admin'] } }, { id: 2, tags: [], owner: null }], page: { n: 1, of: 3 } } }]`),
  c('depth: matrix', js`return [[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]`),
  c('depth: array at depth 4 and 5', js`return [{ d1: { d2: { d3: { d4: [1, 2], d4b: { d5: [1] } } } } }]`),

  // ---------------------------------------------------------------------------
  // Iterators, generators, arguments
  // ---------------------------------------------------------------------------
  c('iterator: generator object', js`function* g() { yield 1 } return [g()]`),
  c('iterator: async generator object', js`async function* g() { yield 1 } return [g()]`),
  c('iterator: map entries', js`return [new Map([[1, 2], [3, 4]]).entries()]`),
  c('iterator: map keys and values', js`const m = new Map([['a', 1], ['b', 2]]); return [m.keys(), m.values()]`),
  c('iterator: set values', js`return [new Set([1, 2]).values()]`),
  c('iterator: set entries', js`return [new Set(['x']).entries()]`),
  c('iterator: map iterator partially consumed', js`const it = new Map([[1, 'one'], [2, 'two'], [3, 'three']]).entries(); it.next(); return [it]`),
  c('iterator: array iterator', js`return [[1, 2][Symbol.iterator]()]`),
  c('iterator: string iterator', js`return ['ab'[Symbol.iterator]()]`),
  c('arguments: two values (printed with braces by Node 20)', js`return [(function () { return arguments })(1, 2)]`),
  c('arguments: empty', js`return [(function () { return arguments })()]`),
  c('arguments: nested in object', js`return [{ args: (function () { return arguments })('a', { b: 1 }) }]`),
]
