import vm from 'node:vm'
import { afterAll, describe, expect, test } from 'vitest'
import type { CodeBindingFunction } from '../index'
import { runtime } from './helpers'

// Frames as V8 names and places them. Differential against the Node running the tests (CI
// runs them under Node 24, the contract's reference): the same program (JavaScript) run the
// way run() runs it, compared frame by frame: names (receivers, `new`, accessors, `async`
// frames after an await), then line:column.
const rt = runtime()
afterAll(() => rt.dispose())

const run = (program: string, functions: Record<string, CodeBindingFunction> = {}) =>
  rt.run({
    program,
    bindings: Object.keys(functions).length
      ? [{ global: 'tools', functions, errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' } }]
      : [],
  })

/** `Name: message` and each frame's name (`<top>` for the program's own anonymous frames). */
const shape = (stack: string, frames: number) => {
  const [head, ...rest] = stack.split('\n')
  const names = rest
    .filter((l) => l.startsWith('    at '))
    .map((l) => l.slice(7).replace(/ \(.*\)$/, '').replace(/(^|^async )program\.ts:\d+:\d+$/, '$1<top>'))
  return [head, ...names.slice(0, frames)]
}

async function inNode(program: string) {
  try {
    await vm.runInNewContext(`(async () => {${program}\n})()`, { setTimeout }, { filename: 'program.ts' })
  } catch (e) {
    return String((e as Error).stack)
  }
  throw new Error('no throw in Node')
}

describe('frame names are what V8 prints', () => {
  // A third element is what Node 24 (the contract's reference, which CI runs the tests
  // under) prints where older V8s name the frame differently (`get x [as x]`, `Function.m`).
  const programs: [string, number, string[]?][] = [
    ['const xs = [1, 2]\nreturn xs.map((x) => { if (x > 1) throw new RangeError("two") })', 3],
    ['[3, 1, 2].sort(() => { throw new Error("s") })', 3],
    ['[1].forEach(function each() { throw new TypeError("f") })', 3],
    ["'ab'.replace('a', () => { throw new Error('r') })", 3],
    ['JSON.parse("x")', 2],
    ['[1].forEach(() => { JSON.parse("x") })', 4],
    ['class Foo { constructor() { throw new Error("c") } }\nnew Foo()', 2],
    ['function outer() { inner() }\nfunction inner() { null.x }\nouter()', 3],
    // receivers: V8 names a method by the type of the object it was called on
    ['class Svc { run() { throw new Error("a") } }\nnew Svc().run()', 2],
    ['const o = { f() { throw new Error("b") } }\no.f()', 2],
    ['const o = { f: () => { throw new Error("h") } }\no.f()', 2],
    ['const o = { get x() { throw new Error("c") } }\no.x', 2, ['Error: c', 'get x', '<top>']],
    ['const o = { set x(v) { throw new Error("a") } }\no.x = 1', 2, ['Error: a', 'set x', '<top>']],
    ['class A { static get x() { throw new Error("b") } }\nA.x', 2, ['Error: b', 'get x', '<top>']],
    ['class A { m() { throw new Error("c") } }\nclass B extends A {}\nnew B().m()', 2],
    ['function f() { throw new Error("k") }\nconst o = { g: f }; o.g()', 2],
    ['class A { static s() { throw new Error("l") } }\nA.s()', 2],
    ['function f() { throw new Error("m") }\nf.call({})', 2],
    ['const o = { f() { throw new Error("q") } }\no.f.call(5)', 2],
    ['const o = { f() { throw new Error("p") } }\no.f.call(undefined)', 2],
    ['const o = { f() { throw new Error("o") } }\nconst g = o.f; g()', 2],
    ['const o = Object.create(null); o.m = function m() { throw new Error("d") }; o.m()', 2],
    ['function f() {}\nf.m = function m() { throw new Error("e") }\nf.m()', 2, ['Error: e', 'f.m', '<top>']],
    ['const a = [1]; a.m = function m() { throw new Error("f") }; a.m()', 2],
    ['const o = { m() { throw new Error("j") } }\nconst p = Object.create(o); p.m()', 2],
    ['class P { #x() { throw new Error("v") } run() { this.#x() } }\nnew P().run()', 3],
    ['const s = Symbol("sy"); const o = { [s]() { throw new Error("w") } }\no[s]()', 2],
    ['class B { run() { [1].map(() => { throw new Error("o") }) } }\nnew B().run()', 4],
    ['const o = { f() { return [1].map(function cb() { throw new Error("i") }) } }\no.f()', 4],
    ['const m = new Map([[1,1]]); m.forEach(function cb() { throw new Error("m") })', 3],
    // constructors
    ['function F() { throw new Error("i") }\nnew F()', 2],
    ['class A { constructor() { this.x() } x() { throw new Error("j") } }\nnew A()', 3],
    ['class A { constructor() { throw new Error("k") } }\nclass B extends A { constructor() { super() } }\nnew B()', 3],
    ['await new Promise((res) => { throw new Error("n") })', 3],
    // async frames: what awaits the failing function, up the chain
    ['async function inner() { await null; throw new Error("e") }\nasync function outer() { await inner() }\nawait outer()', 3],
    ['async function inner() { await null; throw new Error("e") }\nasync function outer() { return await inner() }\nawait outer()', 3],
    ['async function inner() { await null; throw new Error("e") }\nasync function outer() { return inner() }\nawait outer()', 3],
    ['async function a() { await null; throw new Error("s") }\nasync function b() { await a() }\nasync function c() { await b() }\nawait c()', 4],
    ['async function a() { throw new Error("t") }\nasync function b() { await null; await a() }\nawait b()', 3],
    ['async function inner() { await null; throw new Error("e") }\nawait Promise.all([inner()])', 3],
    ['async function inner() { await null; throw new Error("e") }\nawait Promise.allSettled([1, inner()]).then((r) => { throw r[1].reason })', 3],
    ['class C { async run() { await null; throw new Error("q") } }\nawait new C().run()', 2],
    ['const o = { async m() { await null; throw new Error("l") } }\nawait o.m()', 2],
    ['async function f() { throw new Error("p") }\nawait f()', 2],
    // The early catch keeps Node from reporting the rejection as unhandled meanwhile.
    ['async function f() { await null; null.x }\nconst p = f(); p.catch(() => {}); await new Promise((r) => setTimeout(r, 1)); await p', 2],
  ]
  const major = Number(process.versions.node.split('.')[0])
  test.each(programs)('%j', async (program, frames, node24) => {
    const r = await run(program)
    expect(r.error?.kind, JSON.stringify(r)).toBe('exception')
    const ours = shape(r.error!.message, frames)
    if (node24) expect(ours).toEqual(node24)
    if (!node24 || major >= 24) expect(ours).toEqual(shape(await inNode(program), frames))
  })

  test("Promise.any's AggregateError says what V8 says", async () => {
    const program = 'try { await Promise.any([Promise.reject(1), Promise.reject(2)]) } catch (e) { return [String(e), e.message, e.errors] }'
    const r = await run(program)
    expect(r).toEqual({ logs: [], value: ['AggregateError: All promises were rejected', 'All promises were rejected', [1, 2]] })
  })
})

describe('Error.prototype.stack', () => {
  test("its getter reads an error's own stack as the error does", async () => {
    const program = [
      "const get = Object.getOwnPropertyDescriptor(Error.prototype, 'stack')!.get!",
      "const e = new TypeError('t')",
      'const before = get.call(e)',
      'const read = e.stack',
      "e.stack = 'mine'",
      "return [typeof before, before === read, before.split('\\n')[0], get.call(e), get.call(new RangeError('r')).split('\\n')[0], String(get.call({}))]",
    ].join('\n')
    const r = await run(program)
    expect(r).toEqual({ logs: [], value: ['string', true, 'TypeError: t', 'mine', 'RangeError: r', 'undefined'] })
  })
})

describe('no frame of the host', () => {
  const fail = async () => {
    throw new Error('host says no')
  }

  test('a rejected binding call shows where the program awaits it, and no frame of the engine', async () => {
    const r = await run('try { await tools.fail({}) } catch (e) { return e.stack }', { fail })
    expect(r.value).toBe('ToolCallError: host says no\n    at async program.ts:1:7')
  })

  test('a plain binding rejection points at the awaiting functions, as V8 shows an awaited rejection', async () => {
    const r = await rt.run({
      program: 'async function load() {\n  return await ns.fail({})\n}\nawait load()',
      bindings: [{ global: 'ns', functions: { fail } }],
    })
    expect(r.error?.message).toBe('Error: host says no\n    at async load (program.ts:2:10)\n    at async program.ts:4:1')
  })

  test('a rejection inside Promise.all names the element', async () => {
    const r = await run('await Promise.all([tools.ok({}), tools.fail({})])', { ok: async () => 1, fail })
    expect(r.error?.message).toBe("ToolCallError: host says no\n    at async Promise.all (index 1)\n    at async program.ts:1:1 {\n  toolName: 'fail'\n}")
  })

  test('a call refused before the host hears of it shows the program frame only', async () => {
    const r = await run('function go() { return tools.fail(() => 1) }\ntry { await go() } catch (e) { return e.stack }', { fail })
    expect(r.value).toMatch(/^ToolCallError: binding arguments must be lossless JSON\n {4}at go \(program\.ts:1:\d+\)\n {4}at program\.ts:2:\d+$/)
  })

  test('a rejection handled by a chain is followed to what awaits the chain', async () => {
    const r = await run('return await tools.fail({}).catch((e) => e.stack)', { fail })
    expect(r.value).toBe('ToolCallError: host says no\n    at async program.ts:1:8')
  })

  test('a program that makes one itself sees its own frame only', async () => {
    const r = await run('function make() { return new ToolCallError("mine") }\nreturn make().stack', { f: async () => 1 })
    expect(r.value).toMatch(/^ToolCallError: mine\n {4}at make \(program\.ts:1:\d+\)\n {4}at program\.ts:2:\d+$/)
  })
})

describe('columns are where V8 places them', () => {
  /** Each frame as `name (line:column)` in the program, Node's wrapper frame left out. */
  const frames = (stack: string, program: string, node = false) => {
    const wrapperLine = program.split('\n').length + 1
    return stack
      .split('\n')
      .filter((l) => l.startsWith('    at ') && l.includes('program.ts:'))
      .map((l) =>
        l.slice(7).replace(/ \{$/, '').replace(/program\.ts:(\d+):(\d+)/, (_, line, col) => {
          const n = Number(line)
          return `${n}:${n === 1 && node ? Number(col) - '(async () => {'.length : col}`
        }),
      )
      .filter((l) => !l.endsWith(`${wrapperLine}:3`))
  }
  const programs = [
    "throw new Error('x')",
    "  throw   new Error('typed ' + 1)",
    "const e = new Error('x'); throw e",
    "function f() { throw new Error('x') }\nf()",
    "function f() { throw new Error('x') }\n  f( 1, 2 )",
    "const o = { f() { throw new Error('x') } }\no.f()",
    "const o = { a: { f() { throw new Error('x') } } }\no.a.f()",
    "const o = { a: { f() { throw new Error('x') } } }\no.a\n .f()",
    "const o = { f() { throw new Error('x') } }\no['f']()",
    "const o = { f() { throw new Error('x') } }\nconst k = 'f'; o[k]()",
    "function f() { return () => { throw new Error('x') } }\nf()()",
    "const o = { f() { throw new Error('x') } }\no?.f()",
    "class A { constructor() { throw new Error('x') } }\nconst a =   new A()",
    "class A { constructor() { throw new Error('x') } }\nnew   A",
    "const err = () => new Error('x')\nthrow err()",
    "throw Object.assign(new Error('x'), { code: 1 })",
    "await Promise.reject(new Error('r'))",
    "[1].map(() => { throw new Error('x') })",
    "function f(a, b) { throw new Error(a + b) }\nf(g(1), 'x' + h(2))\nfunction g(x) { return x }\nfunction h(x) { return x }",
    "const s = [3, 1].sort((a, b) => { throw new RangeError('s') })",
    "async function inner() { await null; throw new Error('e') }\nasync function outer() {\n  const x = 1\n  await inner()\n}\nawait outer()",
    "const o = null; o.x",
    "const o = {}; o.a.b",
    "[1].map((x) => x.y.z)",
    "1n + 1",
    "for (const x of 5) {}",
    "'abc'.foo()",
    "BigInt(1.5)",
    "const a = 1 + missingVar",
    "function f() { throw new Error('m') }\nf.apply({})",
    "function f() { throw new Error('m') }\nReflect.apply(f, {}, [])",
    "function f() { throw new Error('m') }\nf.bind({})()",
    "const o = {}; o.f()",
    "let f; f()",
    "missing",
    "JSON.parse('{')",
    "new Array(-1)",
    // V8 counts columns in UTF-16 code units: `é` is one, `😀` two.
    "const s = 'é😀'; throw new Error(s)",
    "const s = '𝒳'; const o = null; o.x",
    "const a = 1\nconst s = '日本😀'; [1].map(() => { throw new Error('x') })",
    "function f() { const t = '😀😀'; throw new Error(t) }\nconst u = 'ü𝒳'; f()",
    "const s = `😀${1}é`; missing",
  ]
  test.each(programs)('%j', async (program) => {
    const r = await run(program)
    expect(r.error?.kind, JSON.stringify(r)).toBe('exception')
    expect(frames(r.error!.message, program)).toEqual(frames(await inNode(program), program, true))
  })

  // A program with an enum is lowered and reprinted; its positions are mapped back in UTF-16
  // units too. Node runs the same lines with the enum written as the object it becomes.
  test.each([
    ["enum E { A }\nconst s = '😀é'; throw new Error(s)", "const E = { A: 0 }\nconst s = '😀é'; throw new Error(s)"],
    ["enum E { A }\nconst s = '𝒳'; function f() { const t = 'é'; return null.x }\nf()", "const E = { A: 0 }\nconst s = '𝒳'; function f() { const t = 'é'; return null.x }\nf()"],
  ])('%j (lowered)', async (program, javascript) => {
    const r = await run(program)
    expect(r.error?.kind, JSON.stringify(r)).toBe('exception')
    expect(frames(r.error!.message, program)).toEqual(frames(await inNode(javascript), javascript, true))
  })
})
