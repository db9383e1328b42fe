import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { CORPUS } from './messages-corpus'
import recorded from './messages-expected.json'
import { runtime } from './helpers'

// The engine's messages in V8's words: every program of the corpus fails the same way through
// CodeRuntime as through V8 (`Name: message`, the line a model reads first), V8 being Node 24,
// the contract's reference. What V8 says is recorded (messages-expected.json), and checked
// against the Node running this test (Node 20 words some messages differently: those carry
// their Node 20 text too) and, when NODE24 names a Node 24 binary, against that Node.
//
// The programs whose messages cannot match yet, each with what CodeRuntime says and why.
// The test fails when one of them starts to match: take it off the list then.
const EXCEPTIONS: Record<string, { ours: string; why: string }> = {
  'const a = null; (a ?? {}).x()': {
    ours: 'TypeError: (intermediate value).x is not a function',
    why: 'V8 prints a binary or logical operation in a callee as written, `(a ?? {})`; the callee text is built by the parser from postfix expressions only, and anything else is V8\'s "(intermediate value)"',
  },
  'const a = {}; (a || a).x()': {
    ours: 'TypeError: (intermediate value).x is not a function',
    why: 'as above: `(a || a)` is a logical operation',
  },
  "const o = { a: 1": {
    ours: "SyntaxError: Unexpected end of input",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "function g() { await null }": {
    ours: "SyntaxError: Unexpected token 'null'",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "const t = `abc": {
    ours: "SyntaxError: Unterminated template literal",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "const { a }": {
    ours: "SyntaxError: Missing initializer in const declaration",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "for (const x of [1]) { break; } continue": {
    ours: "SyntaxError: A 'continue' statement can only jump to a label of an enclosing iteration statement",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "break": {
    ours: "SyntaxError: A 'break' statement can only be used within an enclosing iteration or switch statement",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "x: while (true) { break y }": {
    ours: "SyntaxError: A 'break' statement can only jump to a label of an enclosing statement",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "with ({}) {}": {
    ours: "SyntaxError: The 'with' statement is not supported. All symbols in a 'with' block will have type 'any'.",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "var eval = 1": {
    ours: "SyntaxError: invalid variable name in strict mode",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "++1": {
    ours: "SyntaxError: The left-hand side of an assignment expression must be a variable or a property access.",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "function () {}": {
    ours: "SyntaxError: Unexpected token '('",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "const n = 08": {
    ours: "SyntaxError: Octal literals are not allowed in strict mode",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "const n = 0777": {
    ours: "SyntaxError: Legacy octal literals are not available when targeting ECMAScript 5 and higher",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "super.x": {
    ours: "SyntaxError: 'super' is only valid in a method",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "async function f() { yield 1 }": {
    ours: "SyntaxError: Unexpected number",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "const x = 1 +* 2": {
    ours: "SyntaxError: Unexpected token '}'",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "const x = a ?? b || c": {
    ours: "SyntaxError: Unexpected identifier 'a'",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "try { } ": {
    ours: "SyntaxError: Unexpected token '}'",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "function f(...a, b) {}": {
    ours: "SyntaxError: A rest parameter must be last in a parameter list",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
  "let x = 1__0": {
    ours: "SyntaxError: Numeric separators are not allowed at the end of numeric literals",
    why: "swc, which reads the program first, checks this rule itself and reports it in words no mapping covers yet (or at another token, where V8's words would name a different token)",
  },
}

// Syntax errors V8 places elsewhere than CodeRuntime does, with where CodeRuntime places
// them and why. The test fails when one of them starts to match.
const POSITION_EXCEPTIONS: Record<string, { ours: string; why: string }> = {
  'this.#x': { ours: '(none)', why: "QuickJS finds an undeclared private name after parsing, where it keeps no position" },
  "const o = { a: 1": { ours: "2:5", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "function g() { await null }": { ours: "1:22", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "x: while (true) { break y }": { ours: "1:19", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "delete x": { ours: "2:1", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "var eval = 1": { ours: "1:10", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "function () {}": { ours: "1:10", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "({ a: 1, __proto__: 1, __proto__: 2 })": { ours: "1:37", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "super.x": { ours: "1:6", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "throw\nnew Error('x')": { ours: "2:1", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "async function f() { yield 1 }": { ours: "1:28", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "const x = 1 +* 2": { ours: "2:1", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "const x = a ?? b || c": { ours: "1:11", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "const x = -2 ** 2": { ours: "1:17", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "switch (x) { case 1: default: default: }": { ours: "1:38", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "try { } ": { ours: "2:1", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "const o = { get x(a) { } }": { ours: "1:17", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "const o = { set x() { } }": { ours: "1:17", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "function f(...a, b) {}": { ours: "1:12", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "let x = 0x": { ours: "1:11", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
  "let x = 1__0": { ours: "1:9", why: "the parser that reports it (swc first, else QuickJS) stops at another token than V8 for this shape" },
}

const script = fileURLToPath(new URL('../scripts/v8-messages.cjs', import.meta.url))
const programs = recorded.programs as Record<string, { v8: string; node20?: string; at?: string }>
const v8Lines = (node: string): string[] =>
  JSON.parse(execFileSync(node, [script], { input: JSON.stringify(CORPUS), maxBuffer: 1 << 26 }).toString())

const rt = runtime()
afterAll(() => rt.dispose())

/**
 * The `Name: message` part of a failed run's message: its stack without the frames, or a
 * syntax error's message without the `(line:column)` it ends with (`at`).
 */
async function failure(program: string): Promise<{ header: string; at?: string }> {
  const result = await rt.run({ program, bindings: [{ global: 'tools', functions: { echo: async (args) => args as never } }] })
  if (!result.error) return { header: '(no error)' }
  const message = result.error.message
  const syntax = /^(SyntaxError: [^\n]*) \((\d+:\d+)\)$/.exec(message)
  if (syntax) return { header: syntax[1], at: syntax[2] }
  const at = message.indexOf('\n    at ')
  return { header: at < 0 ? message : message.slice(0, at) }
}
const ours = async (program: string) => (await failure(program)).header

describe('engine messages read as V8 writes them', () => {
  test('the corpus holds at least 200 failing programs, each recorded', () => {
    expect(new Set(CORPUS).size).toBe(CORPUS.length)
    expect(CORPUS.length).toBeGreaterThanOrEqual(200)
    expect(Object.keys(programs).sort()).toEqual([...CORPUS].sort())
    for (const program of CORPUS) expect(programs[program].v8, program).not.toBe('(no error)')
    for (const program of Object.keys(EXCEPTIONS)) expect(CORPUS).toContain(program)
  })

  test.each(CORPUS)('%s', async (program) => {
    const exception = EXCEPTIONS[program]
    if (exception) {
      expect(await ours(program)).toBe(exception.ours)
      expect(exception.ours).not.toBe(programs[program].v8)
    } else {
      expect(await ours(program)).toBe(programs[program].v8)
    }
  })

  const placed = CORPUS.filter((program) => programs[program].at)
  test('syntax errors are many, and V8 places each', () => {
    expect(CORPUS.filter((program) => programs[program].v8.startsWith('SyntaxError') && !/JSON|RegExp|regular expression/.test(programs[program].v8 + program)).length).toBeGreaterThanOrEqual(40)
    expect(placed.length).toBeGreaterThanOrEqual(40)
    for (const program of Object.keys(POSITION_EXCEPTIONS)) expect(placed).toContain(program)
  })

  test.each(placed)('%s is reported where V8 reports it', async (program) => {
    const exception = POSITION_EXCEPTIONS[program]
    const at = (await failure(program)).at ?? '(none)'
    if (exception) {
      expect(at).toBe(exception.ours)
      expect(exception.ours).not.toBe(programs[program].at)
    } else {
      expect(at).toBe(programs[program].at)
    }
  })

  const major = Number(process.versions.node.split('.')[0])
  test.runIf(major === 20 || major === 24)(`the recorded lines are what this Node (${process.version}) says`, () => {
    const lines = v8Lines(process.execPath)
    const want = CORPUS.map((program) => (major === 20 ? programs[program].node20 : undefined) ?? programs[program].v8)
    expect(lines).toEqual(want)
  })

  test.runIf(!!process.env.NODE24)('the recorded lines are what the Node 24 in NODE24 says', () => {
    expect(v8Lines(process.env.NODE24!)).toEqual(CORPUS.map((program) => programs[program].v8))
  })
})
