import vm from 'node:vm'
import { afterAll, describe, expect, test } from 'vitest'
import type { CodeBindingFunction } from '../index'
import { runtime } from './helpers'

// Frames as V8 names them. Differential against the Node running the tests: the same
// program (JavaScript) run the way run() runs it; frame names are compared, not columns
// (QuickJS places some calls on another token of the same expression).
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
    .map((l) => l.slice(7).replace(/ \(.*\)$/, '').replace(/^program\.ts:\d+:\d+$/, '<top>'))
  return [head, ...names.slice(0, frames)]
}

async function inNode(program: string) {
  try {
    await vm.runInNewContext(`(async () => {${program}\n})()`, {}, { filename: 'program.ts' })
  } catch (e) {
    return String((e as Error).stack)
  }
  throw new Error('no throw in Node')
}

describe('frame names are what V8 prints', () => {
  const programs: [string, number][] = [
    ['const xs = [1, 2]\nreturn xs.map((x) => { if (x > 1) throw new RangeError("two") })', 3],
    ['[3, 1, 2].sort(() => { throw new Error("s") })', 3],
    ['[1].forEach(function each() { throw new TypeError("f") })', 3],
    ["'ab'.replace('a', () => { throw new Error('r') })", 3],
    ['JSON.parse("x")', 2],
    ['[1].forEach(() => { JSON.parse("x") })', 4],
    ['class Foo { constructor() { throw new Error("c") } }\nnew Foo()', 2],
    ['function outer() { inner() }\nfunction inner() { null.x }\nouter()', 3],
  ]
  test.each(programs)('%j', async (program, frames) => {
    const r = await run(program)
    expect(r.error?.kind, JSON.stringify(r)).toBe('exception')
    expect(shape(r.error!.message, frames)).toEqual(shape(await inNode(program), frames))
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
  test('an error class of a binding shows no constructor frame of the engine', async () => {
    const r = await run('try { await tools.fail({}) } catch (e) { return e.stack }', {
      fail: async () => {
        throw new Error('host says no')
      },
    })
    expect(r.value).toBe('ToolCallError: host says no')
  })

  test('a program that makes one itself sees its own frame only', async () => {
    const r = await run('function make() { return new ToolCallError("mine") }\nreturn make().stack', { f: async () => 1 })
    expect(r.value).toMatch(/^ToolCallError: mine\n {4}at make \(program\.ts:1:\d+\)\n {4}at program\.ts:2:\d+$/)
  })
})
