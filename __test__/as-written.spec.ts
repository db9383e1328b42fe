import vm from 'node:vm'
import { afterAll, describe, expect, test } from 'vitest'
import { runOn, runtime } from './helpers'

// Erasable TypeScript runs as written: its types become whitespace in place, so the engine
// sees the program's own text at its own positions. Differential against the Node running
// the tests: the same program with its types blanked by hand, run the way run() runs it (the
// body of an async function, the wrapper on line 1).
const rt = runtime()
afterAll(() => rt.dispose())

const WRAP = '(async () => {'

/** What Node makes of `program` (JavaScript) as a run: its value, or the thrown error's frames. */
async function inNode(program: string): Promise<{ value?: unknown; frames?: string[]; header?: string }> {
  try {
    const value = await vm.runInNewContext(`${WRAP}${program}\n})()`, {}, { filename: 'program.ts' })
    return { value }
  } catch (e) {
    const lines = String((e as Error).stack).split('\n')
    const last = program.split('\n').length + 1
    const frames = lines
      .slice(1)
      .map((l) => l.trim())
      // The program's frames; not the wrapper's call on the line after the program.
      .filter((l) => l.includes('program.ts:') && !l.endsWith(`program.ts:${last}:3`) && !l.endsWith(`program.ts:${last}:3)`))
      .map((l) => l.replace(/program\.ts:1:(\d+)/, (_, c) => `program.ts:1:${Number(c) - WRAP.length}`))
    return { header: String(e), frames }
  }
}

const positions = (frames: string[]) => frames.map((f) => f.match(/program\.ts:\d+:\d+/)?.[0]).filter(Boolean)

describe('positions are the program\'s own', () => {
  // [TypeScript, the same with its types blanked by hand]: where the engine reports a call,
  // the TypeScript run says the line:column Node says for the JavaScript.
  const pairs: [string, string, boolean][] = [
    [
      'interface P { x: number }\nconst o: { f?: () => void } = {};\n  o.f!()',
      '                         \nconst o                     = {};\n  o.f ()',
      true,
    ],
    [
      'function f(a: number): number { return g(1 as number) }\nfunction g<T>(a: number): number { throw new TypeError("t") }\nreturn f(1 satisfies number)',
      'function f(a        )         { return g(1          ) }\nfunction g   (a        )         { throw new TypeError("t") }\nreturn f(1                 )',
      // QuickJS puts the call inside f one column before V8 does (its own position).
      false,
    ],
    [
      'type Svc = { run(): void }\nclass S implements Svc { private readonly n: number = 1; run(): void { throw new Error("r") } }\nnew S().run()',
      '                          \nclass S                { private readonly n         = 1; run()       { throw new Error("r") } }\nnew S().run()'.replace('private readonly', '                '),
      true,
    ],
  ]
  test.each(pairs)('%j', async (ts, js, nodeAgrees) => {
    expect(ts.length).toBe(js.length)
    const ours = await runOn(rt, ts)
    expect(ours.error?.kind, JSON.stringify(ours)).toBe('exception')
    const frames = ours.error!.message.split('\n').slice(1)
    const node = await inNode(js)
    // The innermost frame is the engine's own column for the throw (QuickJS and V8 put it
    // on different tokens); every call below it is where Node puts it.
    if (nodeAgrees) expect(positions(frames).slice(1)).toEqual(positions(node.frames!).slice(1))
    expect(frames.length).toBe(node.frames!.length)
    // And the TypeScript run reports exactly what the hand-blanked JavaScript run does.
    expect((await runOn(rt, js)).error).toEqual(ours.error)
  })

  test('a throw below type-only lines reports its own line and column', async () => {
    const program = 'interface A {\n  x: number\n}\ntype B = A[]\nconst b: B = [];\n    throw new Error("here")'
    const r = await runOn(rt, program)
    expect(r.error?.message).toBe('Error: here\n    at program.ts:6:11')
  })
})

describe('the text as written', () => {
  test('Function.prototype.toString gives the source text, comments and layout kept', async () => {
    const program = 'function f(/* a */ x) {\n  return x // twice\n}\nreturn f.toString()'
    const r = await runOn(rt, program)
    expect(r).toEqual({ logs: [], value: (await inNode(program)).value })
    expect(r.value).toBe('function f(/* a */ x) {\n  return x // twice\n}')
  })

  test('toString of typed code shows the types as whitespace', async () => {
    const r = await runOn(rt, 'const add = (a: number, b: number): number => a + b\nreturn add.toString()')
    expect(r.value).toBe('(a        , b        )         => a + b')
  })

  test('a function logged as text is as written', async () => {
    const r = await runOn(rt, 'console.log(`${() => 1}`, String(async(x)=>x))')
    expect(r.logs).toEqual(['() => 1 async(x)=>x'])
  })

  test('a parenthesized arrow as a heritage keeps its parentheses', async () => {
    // Without them `class C extends () => {} {}` does not parse.
    const program = 'let threw = false\ntry { class C extends (() => {}) {} } catch (e) { threw = e instanceof TypeError }\nreturn threw'
    const r = await runOn(rt, program)
    expect(r).toEqual({ logs: [], value: (await inNode(program)).value })
    expect(r.value).toBe(true)
  })

  test('static methods named constructor are methods', async () => {
    const program = [
      'var C = class { static constructor() { return 1 } static *constructor2() {} }',
      'var D = class { static get constructor() { return 2 } }',
      'var E = class { static *constructor() { yield 3 } }',
      'class G { constructor() { this.v = 4 } static constructor() { return 5 } }',
      'return [C.constructor(), D.constructor, [...E.constructor()][0], new G().v, G.constructor()]',
    ].join('\n')
    const r = await runOn(rt, program)
    expect(r).toEqual({ logs: [], value: (await inNode(program)).value })
    expect(r.value).toEqual([1, 2, 3, 4, 5])
  })

  test('static async methods named constructor and `using` in a for head run (swc refuses them)', async () => {
    const program = [
      'class A { static async constructor() { return 6 } static async *constructor2() {} }',
      'class B { static async * constructor() { yield 7 } constructor() {} }',
      'const log = []',
      'const res = (v) => ({ [Symbol.dispose]() { log.push(v) } })',
      'for (using x = res(1), y = res(2); log.length < 2;) log.push(0)',
      'for (using of = null;;) break',
      "const ares = { async [Symbol.asyncDispose]() { log.push('a') } }",
      'for (await using z = ares; log.length < 5;) log.push(3)',
      'for await (const v of B.constructor()) log.push(v)',
      'return [await A.constructor(), log]',
    ].join('\n')
    const r = await runOn(rt, program)
    expect(r).toEqual({ logs: [], value: [6, [0, 0, 2, 1, 3, 'a', 7]] })
  })

  test('a U+0000 in the program text is part of it', async () => {
    for (const program of ['return "a\u0000b".length', '// \u0000 comment\nreturn `x\u0000`.length + 1', "const s: string = 'a\u0000'\nreturn s.charCodeAt(1)"]) {
      const r = await runOn(rt, program)
      expect(r, JSON.stringify(program)).toEqual({ logs: [], value: (await inNode(program.replace(': string', '        '))).value })
    }
  })

  test('non-erasable TypeScript still runs, lowered, with positions mapped back', async () => {
    const program = 'enum E { A = 2 }\nclass P { constructor(public a: number) {} }\nif (new P(E.A).a === 2) {\n  throw new Error("e")\n}'
    const r = await runOn(rt, program)
    expect(r.error?.message).toMatch(/^Error: e\n {4}at program\.ts:4:\d+$/)
  })
})

describe('early errors are the engine\'s own', () => {
  const cases = [
    '{ let f; var f; }\nreturn 1',
    'while (false) async function f() {}',
    'for (false; false\n) {}',
    'let x = 1; let x = 2',
  ]
  test.each(cases)('%j is a SyntaxError, as in Node', async (program) => {
    const r = await runOn(rt, program)
    expect(r.error?.kind, JSON.stringify(r)).toBe('exception')
    expect(r.error!.message).toMatch(/^SyntaxError: .* \(\d+:\d+\)$/)
    expect((await inNode(program)).header).toMatch(/^SyntaxError: /)
  })

  test('the position is in the program as written', async () => {
    const r = await runOn(rt, 'const a: number = 1\n{ let f: string; var f: number; }')
    expect(r.error?.message).toBe("SyntaxError: Identifier 'f' has already been declared (2:22)")
  })
})
