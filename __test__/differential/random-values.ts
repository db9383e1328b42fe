/**
 * A seeded generator of logged values for the console differential test: each value is the
 * source of a JavaScript expression (valid in QuickJS and in Node), so the run and the
 * reference build the same value in their own realm. The shapes are what models log — nested
 * plain objects and arrays, Map/Set, Date, RegExp, errors, class instances, typed arrays —
 * with the edges of Node's layout rules mixed in: widths around the 80-column break, numeric
 * arrays over 6 entries (grouped in columns), the depth and array caps, quoting of strings and
 * keys, circular references.
 */

/** mulberry32: small, seeded, the same sequence everywhere. */
function prng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = ['id', 'name', 'value', 'items', 'a', 'b', 'x', 'status', 'ok', 'data', 'user', 'count', 'title', 'tags', 'meta', 'createdAt']
const ODD_KEYS = ['a-b', 'with space', '0', '12', '1.5', '-1', "it's", 'ünï', '', '$ok', '_x', 'class', 'a"b', 'x\\ny', '__proto__', 'constructor', '9lives']
const STRINGS = ['', 'hello', "it's", 'say "hi"', 'both \' and "', 'all \' " \x60', 'line1\nline2', 'tab\there', '\u00e9\u00e8', '\u6f22\u5b57', '\ud83d\ude00', 'nul\u0000', '\u001b[31m', 'back\\slash', '\ud800 lone', 'x\udfffy', '\u200b', 'a'.repeat(20)]
const NUMBERS = ['0', '-0', '1', '-1', '42', '3.14', '-2.5e-7', '1e21', '123456789', '2 ** 53', 'NaN', 'Infinity', '-Infinity', '0.1 + 0.2', '1 / 3', '255', '1000000']

export interface RandomProgram {
  name: string
  source: string
  /** how many values the program logs */
  values: number
}

class Gen {
  private next: () => number
  private classes = 0
  constructor(seed: number) {
    this.next = prng(seed)
  }
  int(n: number) {
    return Math.floor(this.next() * n)
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]
  }
  chance(p: number) {
    return this.next() < p
  }
  str(): string {
    if (this.chance(0.15)) return JSON.stringify(this.pick(WORDS).repeat(1 + this.int(12)))
    if (this.chance(0.05)) return `'z'.repeat(${this.pick([70, 76, 77, 78, 79, 80, 81, 120, 10001])})`
    return toSource(this.pick(STRINGS))
  }
  key(): string {
    if (this.chance(0.12)) return toSource(this.pick(ODD_KEYS))
    if (this.chance(0.05)) return `[Symbol(${toSource(this.pick(WORDS))})]`
    return this.pick(WORDS)
  }
  primitive(): string {
    switch (this.int(9)) {
      case 0:
      case 1:
        return this.str()
      case 2:
      case 3:
        return this.pick(NUMBERS)
      case 4:
        return String(this.int(1000))
      case 5:
        return this.pick(['true', 'false', 'null', 'undefined'])
      case 6:
        return this.pick(['0n', '-5n', '12345678901234567890n'])
      case 7:
        return this.pick(["Symbol('s')", 'Symbol()', 'Symbol.iterator', "Symbol.for('k')"])
      default:
        return (this.int(2000) - 1000) / 8 + ''
    }
  }
  value(depth: number): string {
    if (depth > 6 || this.chance(depth === 0 ? 0.1 : 0.35)) return this.primitive()
    switch (this.int(16)) {
      case 0:
      case 1:
      case 2:
        return this.object(depth)
      case 3:
      case 4:
        return this.array(depth)
      case 5:
        return this.numbers()
      case 6:
        return `new Map([${this.list(4, () => `[${this.primitive()}, ${this.value(depth + 1)}]`)}])`
      case 7:
        return `new Set([${this.list(5, () => this.value(depth + 1))}])`
      case 8:
        return this.pick([`new Date(${this.int(2e12)})`, 'new Date(0)', 'new Date(NaN)', `new Date(Date.UTC(2024, ${this.int(12)}, ${1 + this.int(28)}))`])
      case 9:
        return this.pick(['/ab+c/gi', '/[a-z]\\d*/', 'new RegExp("x/y", "m")', '/^\\s+$/u', '/(?<year>\\d{4})/y'])
      case 10:
        return this.instance(depth)
      case 11:
        return `new ${this.pick(['Uint8Array', 'Int16Array', 'Float64Array', 'Uint32Array', 'Int8Array', 'Float32Array'])}([${this.list(12, () => String(this.int(300) - 100))}])`
      case 12:
        return `Object.assign(Object.create(null), ${this.object(depth)})`
      case 13:
        return this.pick(['function named() {}', '() => 1', 'class K {}', 'async function af() {}', 'function* gen() {}', 'Math.max', 'new Number(3)', "new String('boxed')", 'new Boolean(false)', 'Object(1n)', 'Object(Symbol("b"))'])
      case 14:
        return this.error()
      default:
        return `[${this.list(3, () => this.object(depth + 1))}]`
    }
  }
  list(max: number, item: () => string) {
    return Array.from({ length: this.int(max + 1) }, item).join(', ')
  }
  object(depth: number) {
    const n = this.chance(0.1) ? 8 + this.int(20) : this.int(6)
    const seen = new Set<string>()
    const props: string[] = []
    for (let i = 0; i < n; i++) {
      const k = this.key()
      if (seen.has(k)) continue
      seen.add(k)
      // A '__proto__' key: a computed key, or it would set the prototype.
      const name = k === "'__proto__'" ? `['__proto__']` : k
      props.push(`${name}: ${this.value(depth + 1)}`)
    }
    return `({ ${props.join(', ')} })`
  }
  array(depth: number) {
    const n = this.chance(0.1) ? 7 + this.int(120) : this.int(8)
    return `[${Array.from({ length: n }, () => this.value(depth + 1)).join(', ')}]`
  }
  numbers() {
    const n = this.pick([7, 8, 12, 16, 26, 27, 50, 99, 100, 101, 150])
    const kind = this.int(4)
    const item = () => (kind === 0 ? String(this.int(10)) : kind === 1 ? String(this.int(100000)) : kind === 2 ? this.str() : String((this.int(2000) - 1000) / 4))
    return `[${Array.from({ length: n }, item).join(', ')}]`
  }
  instance(depth: number) {
    const name = this.pick(['Point', 'User', 'Node', 'Foo', 'MyError'])
    const c = this.classes++
    const base = this.pick(['', ' extends Map', ' extends Array', ' extends Set', ' extends Error', ''])
    const fields = this.list(3, () => `this.${this.pick(WORDS)} = ${this.value(depth + 1)}`).replace(/, this/g, '; this')
    const body = base === ' extends Error' ? `constructor() { super('m'); ${fields} }` : base ? `constructor() { super(); ${fields} }` : `constructor() { ${fields} }`
    return `new (class ${name}${c}${base} { ${body} })()`
  }
  error() {
    const ctor = this.pick(['Error', 'TypeError', 'RangeError', 'SyntaxError'])
    const msg = this.pick(['boom', 'bad input', '', 'multi\nline'])
    const extra = this.pick(['', 'e.code = "E_X"; ', 'e.stack = "custom stack"; ', 'e.cause = 1; ', 'e.name = "Custom"; '])
    return `(() => { const e = new ${ctor}(${toSource(msg)}); ${extra}return e })()`
  }
  statement(i: number): string {
    const roll = this.int(20)
    if (roll === 0) return `{ const o = ${this.object(1)}; o.self = o; console.log(o) }`
    if (roll === 1) return `console.log(${toSource(this.pick(['%s', '%d', '%i', '%f', '%j', '%o', '%O', '%c', 'n=%d, s=%s']))}, ${this.value(1)}, ${this.value(1)})`
    if (roll === 2) return `console.log(${this.str()}, ${this.value(1)}, ${this.primitive()})`
    if (roll === 3) return `console.log([${this.value(1)}, ${this.value(1)}])`
    return `console.log(${this.value(0)}) // value ${i}\n`
  }
}

function toSource(s: string) {
  let out = "'"
  for (const ch of s) {
    const c = ch.codePointAt(0) as number
    if (ch === "'" || ch === '\\') out += '\\' + ch
    else if (c < 0x20 || c > 0x7e) out += c > 0xffff ? ch.split('').map(u).join('') : u(ch)
    else out += ch
  }
  return out + "'"
}
const u = (ch: string) => '\\u' + (ch.charCodeAt(0) as number).toString(16).padStart(4, '0')

/** `programs` programs of `perProgram` logged values each, from `seed`. */
export function randomPrograms(seed = 20241201, programs = 100, perProgram = 50): RandomProgram[] {
  const gen = new Gen(seed)
  return Array.from({ length: programs }, (_, p) => {
    // A statement that throws (a format specifier can) must not hide the ones after it.
    const lines = Array.from({ length: perProgram }, (_, i) => `try { ${gen.statement(p * perProgram + i)} } catch (e) { console.log('threw', String(e)) }`)
    return { name: `random #${p}`, source: lines.join('\n'), values: perProgram }
  })
}
