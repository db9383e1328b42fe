import { afterAll, describe, expect, test } from 'vitest'
import type { CodeBindingFunction } from '../index'
import { runOn, runtime } from './helpers'

// Issue 5: what a model reads when its program fails. `exception` messages and
// `error.stack` look like Node's: `Name: message`, then V8-shaped frames whose line:column
// are positions in the TypeScript as written, our wrapper's frames removed.
const rt = runtime()
afterAll(() => rt.dispose())

const run = (program: string, functions: Record<string, CodeBindingFunction> = {}) =>
  rt.run({ program, bindings: Object.keys(functions).length ? [{ global: 'tools', functions }] : [] })
const message = async (program: string, functions?: Record<string, CodeBindingFunction>) => {
  const r = await run(program, functions)
  expect(r.error?.kind, JSON.stringify(r)).toBe('exception')
  return r.error!.message
}

describe('exception messages point into the program as written', () => {
  test('a throw on line 7 below type annotations, an interface and an enum', async () => {
    const program = [
      'interface Point { x: number; y: number }',
      'enum Color { Red, Green, Blue }',
      'type Name = string',
      'const origin: Point = { x: 1, y: Color.Green }',
      'function check(p: Point, label: Name): number {',
      '  if (p.x > 0) {',
      '    throw new Error(`bad point ${label}`)',
      '  }',
      '  return p.y',
      '}',
      'return check(origin, "origin")',
    ].join('\n')
    const text = await message(program)
    const lines = text.split('\n')
    expect(lines[0]).toBe('Error: bad point origin')
    expect(lines[1]).toMatch(/^ {4}at check \(program\.ts:7:\d+\)$/)
    expect(lines[2]).toMatch(/^ {4}at program\.ts:11:\d+$/)
    expect(lines).toHaveLength(3)
    // The column lies on the throw statement of line 7.
    const column = Number(/:7:(\d+)\)$/.exec(lines[1])![1])
    expect(column).toBeGreaterThanOrEqual(5)
    expect(column).toBeLessThanOrEqual('    throw new Error(`bad point ${label}`)'.length)
  })

  test('a throw in a nested function called from a binding callback continuation', async () => {
    const program = [
      'type Row = { id: number }',
      'function parse(rows: Row[]): number[] {',
      '  function pick(row: Row): number {',
      '    if (row.id < 0) throw new RangeError(`negative id ${row.id}`)',
      '    return row.id',
      '  }',
      '  return rows.map(pick)',
      '}',
      'const ids = await tools.rows({}).then((rows: Row[]) => parse(rows))',
      'return ids',
    ].join('\n')
    const text = await message(program, { rows: async () => [{ id: 1 }, { id: -2 }] })
    const lines = text.split('\n')
    expect(lines[0]).toBe('RangeError: negative id -2')
    expect(lines[1]).toMatch(/^ {4}at pick \(program\.ts:4:\d+\)$/)
    expect(lines[2]).toBe('    at Array.map (<anonymous>)')
    expect(lines[3]).toMatch(/^ {4}at parse \(program\.ts:7:\d+\)$/)
    expect(lines[4]).toMatch(/^ {4}at program\.ts:9:\d+$/)
  })

  test('a syntax error on line 3 names its line and column', async () => {
    expect(await message('const a: number = 1\nconst b = 2\nconst c = = 3\nreturn a')).toBe(
      "SyntaxError: Unexpected token '=' (3:11)",
    )
  })

  test('an engine TypeError reads like V8 with a program position', async () => {
    const text = await message('const o: any = null\nreturn o.x')
    expect(text).toMatch(/^TypeError: Cannot read properties of null \(reading 'x'\)\n {4}at program\.ts:2:\d+$/)
  })

  test('constructor frames say `new`, as V8 does', async () => {
    const text = await message('class Boom { constructor() { throw new Error("in ctor") } }\nnew Boom()')
    expect(text).toMatch(/^Error: in ctor\n {4}at new Boom \(program\.ts:1:\d+\)\n {4}at program\.ts:2:\d+$/)
  })

  test("an error's cause is shown as Node shows it", async () => {
    const text = await message('const inner = new Error("inner")\nthrow new Error("outer", { cause: inner })')
    expect(text).toMatch(
      /^Error: outer\n {4}at program\.ts:2:\d+ \{\n {2}\[cause\]: Error: inner\n {6}at program\.ts:1:\d+\n\}$/,
    )
    expect(await message('throw new Error("x", { cause: "why" })')).toMatch(/^Error: x\n {4}at program\.ts:1:\d+ \{\n {2}\[cause\]: 'why'\n\}$/)
  })

  test('an AggregateError lists its errors', async () => {
    const text = await message('throw new AggregateError([new Error("a"), new TypeError("b")], "many")')
    expect(text).toMatch(
      /^AggregateError: many\n {4}at program\.ts:1:\d+ \{\n {2}\[errors\]: \[\n {4}Error: a\n {8}at program\.ts:1:\d+,\n {4}TypeError: b\n {8}at program\.ts:1:\d+\n {2}\]\n\}$/,
    )
  })

  test('extra own properties and subclasses show as Node shows them', async () => {
    expect(await message('const e: any = new Error("p")\ne.code = "E1"\nthrow e')).toMatch(
      /^Error: p\n {4}at program\.ts:1:\d+ \{\n {2}code: 'E1'\n\}$/,
    )
    expect(await message('class NotFound extends Error {}\nthrow new NotFound("gone")')).toMatch(
      /^NotFound \[Error\]: gone\n {4}at new NotFound \(program\.ts:1:\d+\)\n {4}at program\.ts:2:\d+$/,
    )
    expect(
      await message('class NotFound extends Error { constructor(m: string) { super(m); this.name = "NotFound" } }\nthrow new NotFound("gone")'),
    ).toMatch(/^NotFound: gone\n {4}at new NotFound \(program\.ts:1:\d+\)\n {4}at program\.ts:2:\d+$/)
  })

  test('thrown non-errors are String(value)', async () => {
    expect(await message('throw "plain"')).toBe('plain')
    expect(await message('throw { toString() { return "custom" } }')).toBe('custom')
  })

  test('frames of the engine preludes are removed', async () => {
    const text = await message('new URL("not a url")')
    expect(text).toMatch(/^TypeError: Invalid URL\n {4}at program\.ts:1:\d+ \{/)
    expect(text).not.toContain('prelude')
  })
})

describe('error.stack in the program behaves as in V8', () => {
  test('Name: message header, mapped frames, own non-enumerable data property after the first read', async () => {
    const r = await runOn(
      rt,
      [
        'const x: number = 1',
        'function f(): Error { return new TypeError("t" + x) }',
        'const e = f()',
        'const s = e.stack',
        'const d = Object.getOwnPropertyDescriptor(e, "stack")!',
        'return { s, enumerable: d.enumerable, writable: d.writable, isData: "value" in d, keys: Object.keys(e) }',
      ].join('\n'),
    )
    expect(r.error).toBeUndefined()
    const v = r.value as { s: string; enumerable: boolean; writable: boolean; isData: boolean; keys: string[] }
    expect(v.s).toMatch(/^TypeError: t1\n {4}at f \(program\.ts:2:\d+\)\n {4}at program\.ts:3:\d+$/)
    expect(v).toMatchObject({ enumerable: false, writable: true, isData: true, keys: [] })
  })

  test('the header is made on first read: a name set by a subclass and a changed message show', async () => {
    const r = await runOn(
      rt,
      [
        'class ValidationError extends Error { constructor(m: string) { super(m); this.name = "ValidationError" } }',
        'const a = new ValidationError("bad")',
        'const b = new Error("before")',
        'b.message = "after"',
        'return [a.stack!.split("\\n")[0], b.stack!.split("\\n")[0]]',
      ].join('\n'),
    )
    expect(r.value).toEqual(['ValidationError: bad', 'Error: after'])
  })

  test('stack can be overwritten and deleted', async () => {
    const r = await runOn(
      rt,
      'const a = new Error("a"); a.stack = "mine"\nconst b = new Error("b"); delete b.stack\nconst c = new Error("c"); c.stack; delete c.stack\nreturn [a.stack, b.stack === undefined, c.stack === undefined]',
    )
    expect(r.value).toEqual(['mine', true, true])
  })

  test('Error.captureStackTrace gives any object a V8-shaped stack', async () => {
    const r = await runOn(
      rt,
      'function make() { const o: any = { name: "Custom", message: "m" }; Error.captureStackTrace(o); return o }\nreturn make().stack',
    )
    expect(r.value).toMatch(/^Custom: m\n {4}at make \(program\.ts:1:\d+\)\n {4}at program\.ts:2:\d+$/)
  })

  test("Error.prepareStackTrace reads undefined and a program's own hook takes over", async () => {
    const r = await runOn(
      rt,
      [
        'const before = Error.prepareStackTrace',
        'Error.prepareStackTrace = (e: Error, sites: any[]) => `custom ${e.message} ${sites.length > 0}`',
        'const custom = new Error("q").stack',
        'Error.prepareStackTrace = undefined',
        'const restored = new Error("r").stack!.split("\\n")[0]',
        'return [before === undefined, custom, restored]',
      ].join('\n'),
    )
    expect(r.value).toEqual([true, 'custom q true', 'Error: r'])
  })

  test('Error.stackTraceLimit = 0 leaves the header only', async () => {
    const r = await runOn(rt, 'Error.stackTraceLimit = 0\nreturn new RangeError("r").stack')
    expect(r.value).toBe('RangeError: r')
  })
})

describe('hostile programs cannot break error reporting', () => {
  test('tampered WeakMap, throwing name getters, throwing prepareStackTrace, frozen errors', async () => {
    const cases: [string, RegExp][] = [
      ['WeakMap.prototype.get = () => "forged"; WeakMap.prototype.set = () => { throw 1 }\nthrow new Error("w")', /^Error: w\n {4}at program\.ts:2:\d+$/],
      ['Object.defineProperty(Error.prototype, "name", { get() { throw new Error("no") } })\nconst e = new Error("n")\nlet s = ""\ntry { s = e.stack! } catch { s = "threw" }\nreturn s', /^threw$/], // as V8: the header's name getter throws
      ['Error.prepareStackTrace = () => { throw new Error("inner") }\nthrow new Error("p")', /^Error: p$/],
      ['const e = Object.freeze(new Error("frozen"))\nthrow e', /^Error: frozen\n {4}at program\.ts:1:\d+$/],
      ['Object.defineProperty(Error.prototype, "stack", { get() { return "forged" } })\nthrow new Error("s")', /^Error: s\n {4}at program\.ts:2:\d+$/],
      ['const e = new Error("g"); Object.defineProperty(e, "stack", { get() { for (;;) {} } })\nthrow e', /^Error: g$/],
    ]
    for (const [program, expected] of cases) {
      const r = await runOn(rt, program, { computeMs: 2000 })
      if (r.error) expect(r.error.message, program).toMatch(expected)
      else expect(r.value, program).toMatch(expected)
    }
  })

  test('a program throwing a million errors in a loop ends normally', async () => {
    const r = await runOn(rt, 'let n = 0\nfor (let i = 0; i < 1e5; i++) { try { null!.x } catch (e) { n++ } }\nreturn n', { computeMs: 10_000 })
    expect(r).toEqual({ logs: [], value: 1e5 })
  })
})

describe('console.trace', () => {
  test('prints Trace: and the formatted arguments, then the caller stack in program positions', async () => {
    const r = await runOn(
      rt,
      'console.trace()\ninterface P { n: number }\nfunction f(p: P) { console.trace("at %d", p.n, { deep: [1] }) }\nf({ n: 5 })\nconsole.group("g")\nconsole.trace("grouped")',
    )
    expect(r.error).toBeUndefined()
    expect(r.logs[0]).toMatch(/^Trace\n {4}at program\.ts:1:\d+$/)
    expect(r.logs[1]).toMatch(/^Trace: at 5 \{ deep: \[ 1 \] \}\n {4}at f \(program\.ts:3:\d+\)\n {4}at program\.ts:4:\d+$/)
    expect(r.logs[2]).toBe('g')
    expect(r.logs[3]).toMatch(/^ {2}Trace: grouped\n {6}at program\.ts:6:\d+$/)
  })
})

describe('early errors the TypeScript parser lets through', () => {
  // swc does not report every early error; QuickJS does, when it compiles the program (its
  // own text, types blanked), in V8's words and at V8's position (the name declared again).
  test('end at once as SyntaxError (line:column) in the program as written', async () => {
    const cases: [string, string][] = [
      ['const f = 1\nconst f = 2\nreturn f', "SyntaxError: Identifier 'f' has already been declared (2:7)"],
      ['function g(a: number) { let a = 1 }', "SyntaxError: Identifier 'a' has already been declared (1:29)"],
      ['{ let f; var f; }\nreturn 1', "SyntaxError: Identifier 'f' has already been declared (1:14)"],
      ['label: label: 1', "SyntaxError: Label 'label' has already been declared (1:8)"],
    ]
    for (const [program, expected] of cases) {
      const started = performance.now()
      const r = await runOn(rt, program)
      expect(r, program).toEqual({ logs: [], error: { kind: 'exception', message: expected } })
      expect(performance.now() - started).toBeLessThan(5000)
    }
  })
})
