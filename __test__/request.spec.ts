import { afterAll, describe, expect, test } from 'vitest'
import { CodeRuntime, runtime } from './helpers'

const rt = runtime()
afterAll(() => rt.dispose())
const fn = async () => null
const ns = (global: string, extra: object = {}) => ({ global, functions: { f: fn }, ...extra })

describe('run() rejects misuse of the seam', () => {
  test.each([
    ['a request that is not an object', null, /request must be an object/],
    ['a request that is a string', 'return 1', /request must be an object/],
    ['a program that is not a string', { program: 5, bindings: [] }, /request\.program must be a string/],
    ['bindings that are not an array', { program: '', bindings: {} }, /request\.bindings must be an array/],
    ['a signal that is not an AbortSignal', { program: '', bindings: [], signal: { aborted: false } }, /must be an AbortSignal/],
    ['a global that is not an identifier', { program: '', bindings: [ns('my-tools')] }, /not a usable identifier/],
    ['a global starting with a digit', { program: '', bindings: [ns('1tools')] }, /not a usable identifier/],
    ['a global that is a reserved word', { program: '', bindings: [ns('await')] }, /not a usable identifier/],
    ['a global that is a Python keyword', { program: '', bindings: [ns('lambda')] }, /not a usable identifier/],
    ['a global that is reserved', { program: '', bindings: [ns('console')] }, /reserved binding global/],
    ['a global that is __builtins__', { program: '', bindings: [ns('__builtins__')] }, /reserved binding global/],
    ['a repeated global', { program: '', bindings: [ns('tools'), ns('tools')] }, /duplicate binding global/],
    [
      'an error class name that is not an identifier',
      { program: '', bindings: [ns('tools', { errorClass: { name: 'Tool Error', memberNameProperty: 'tool' } })] },
      /error class .* not a usable identifier/,
    ],
    [
      'an error class name that is reserved',
      { program: '', bindings: [ns('tools', { errorClass: { name: 'console', memberNameProperty: 'tool' } })] },
      /reserved binding global/,
    ],
    [
      'an error class named like a binding global',
      { program: '', bindings: [ns('tools', { errorClass: { name: 'tools', memberNameProperty: 'tool' } })] },
      /duplicate injected global/,
    ],
    [
      'two error classes with one name',
      {
        program: '',
        bindings: [
          ns('a', { errorClass: { name: 'E', memberNameProperty: 'tool' } }),
          ns('b', { errorClass: { name: 'E', memberNameProperty: 'tool' } }),
        ],
      },
      /duplicate injected global/,
    ],
    [
      'an empty member property',
      { program: '', bindings: [ns('tools', { errorClass: { name: 'E', memberNameProperty: '' } })] },
      /member property .* not usable/,
    ],
    [
      'a reserved member property',
      { program: '', bindings: [ns('tools', { errorClass: { name: 'E', memberNameProperty: 'message' } })] },
      /member property .* not usable/,
    ],
    [
      'a dunder member property',
      { program: '', bindings: [ns('tools', { errorClass: { name: 'E', memberNameProperty: '__x__' } })] },
      /member property .* not usable/,
    ],
    [
      'a functions entry that is not a function',
      { program: '', bindings: [{ global: 'tools', functions: { f: 'nope' } }] },
      /is not a function/,
    ],
  ])('%s', async (_, request, message) => {
    await expect(rt.run(request as any)).rejects.toThrow(message)
    await expect(rt.run(request as any)).rejects.toBeInstanceOf(Error)
  })

  test('run() after dispose() rejects', async () => {
    const r = new CodeRuntime()
    await r.dispose()
    await expect(r.run({ program: 'return 1', bindings: [] })).rejects.toThrow(/after disposal/)
  })

  test('valid namespaces are accepted', async () => {
    const r = await rt.run({
      program: 'return 1',
      bindings: [ns('tools', { errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' } }), ns('_db')],
    })
    expect(r).toEqual({ logs: [], value: 1 })
  })
})

describe('abort and dispose', () => {
  test('an already-aborted signal never starts the program', async () => {
    const ac = new AbortController()
    ac.abort('too late')
    const r = await rt.run({ program: 'console.log("ran"); return 1', bindings: [], signal: ac.signal })
    expect(r).toEqual({ logs: [], error: { kind: 'abort', message: 'too late' } })
  })

  test('abort stops a hot loop and the signal keeps no listener', async () => {
    const ac = new AbortController()
    const p = rt.run({ program: 'console.log("spinning"); for (;;) {}', bindings: [], signal: ac.signal })
    setTimeout(() => ac.abort(new Error('stop')), 100)
    const r = await p
    expect(r).toEqual({ logs: ['spinning'], error: { kind: 'abort', message: 'Error: stop' } })
  })

  test('dispose ends in-flight runs and is idempotent', async () => {
    const r = new CodeRuntime()
    const hot = r.run({ program: 'for (;;) {}', bindings: [] })
    await new Promise((res) => setTimeout(res, 50))
    const first = r.dispose()
    const second = r.dispose()
    expect(await hot).toEqual({ logs: [], error: { kind: 'abort', message: 'runtime disposed' } })
    await first
    await second
    await r.dispose()
  })
})
