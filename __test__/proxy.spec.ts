import { afterAll, describe, expect, test } from 'vitest'
import { createRequire } from 'node:module'
import type * as Codemode from '../codemode'
import { CodeRuntime } from './helpers'

// Every public method of CodeRuntime, CodeSession and QuickJSExecutor works when called
// through a Proxy of the instance, or with `this` a Proxy of it (as cordis 3 calls a
// service's methods), and refuses anything that is not an instance.
const require = createRequire(import.meta.url)
const { QuickJSExecutor }: typeof Codemode = require('code-runtime-quickjs/codemode')

const made: Array<{ dispose(): Promise<void> }> = []
afterAll(() => Promise.all(made.map((x) => x.dispose())))
const runtime = () => {
  const rt = new CodeRuntime({ threads: 1 })
  made.push(rt)
  return rt
}
/** The Proxies a caller may hold: a bare one, one whose traps forward with the Proxy as receiver, one of a Proxy. */
function proxiesOf<T extends object>(target: T): T[] {
  const forwarding = new Proxy(target, { get: (t, key, receiver) => Reflect.get(t, key, receiver) })
  return [new Proxy(target, {}), forwarding, new Proxy(new Proxy(target, {}), {})]
}
const program = { program: 'const r = await tools.id({ v: 1 }); return r.v + 1', bindings: [{ global: 'tools', functions: { id: async (a: unknown) => a } }] }

describe('CodeRuntime', () => {
  test('run, openSession, metrics, dispose and asyncDispose through a Proxy', async () => {
    for (const proxied of proxiesOf(runtime())) {
      expect(await proxied.run(program)).toEqual({ logs: [], value: 2 })
      expect(proxied.language).toBe('typescript')
      expect(proxied.isolation).toBe('quickjs')
      expect(proxied.metrics().runs.started).toBeGreaterThan(0)
      const session = proxied.openSession()
      expect(await session.run({ program: 'return 3', bindings: [] })).toEqual({ logs: [], value: 3 })
      await session.dispose()
    }
    for (const dispose of ['dispose', Symbol.asyncDispose] as const) {
      const rt = runtime()
      const [proxied] = proxiesOf(rt)
      await (proxied[dispose] as () => Promise<void>)()
      await expect(rt.run(program)).rejects.toThrow('CodeRuntime.run() called after disposal')
    }
  })

  test('the prototype methods with `this` a Proxy of the instance', async () => {
    const rt = runtime()
    const [proxied] = proxiesOf(rt)
    expect(await CodeRuntime.prototype.run.call(proxied, program)).toEqual({ logs: [], value: 2 })
    expect(CodeRuntime.prototype.metrics.call(proxied).runs.started).toBe(1)
    const session = CodeRuntime.prototype.openSession.call(proxied)
    await session.dispose()
    await CodeRuntime.prototype.dispose.call(proxied)
    await expect(rt.run(program)).rejects.toThrow('after disposal')
  })

  test('anything but an instance is refused with a TypeError: objects, Proxies of them, forgeries', async () => {
    const rt = runtime()
    const symbol = Object.getOwnPropertySymbols(rt)[0]
    const impostors: unknown[] = [{}, null, undefined, 42, new Proxy({}, {}), { [symbol]: {} }, { [symbol]: null },
      new Proxy(rt, { get() { throw new Error('trap') } })] // prettier-ignore
    for (const impostor of impostors) {
      await expect(CodeRuntime.prototype.run.call(impostor, program)).rejects.toThrow(new TypeError('CodeRuntime.run() called on an object that is not a CodeRuntime'))
      await expect(CodeRuntime.prototype.dispose.call(impostor)).rejects.toThrow(TypeError)
      expect(() => CodeRuntime.prototype.metrics.call(impostor)).toThrow(TypeError)
      expect(() => CodeRuntime.prototype.openSession.call(impostor)).toThrow(TypeError)
    }
    // The instance shows nothing new: no enumerable key, nothing in JSON.
    expect(Object.keys(rt)).toEqual([])
    expect(JSON.stringify(rt)).toBe('{}')
  })
})

describe('CodeSession', () => {
  test('run and dispose through a Proxy and as prototype methods on one', async () => {
    const rt = runtime()
    for (const index of [0, 1, 2]) {
      const proxied = proxiesOf(rt.openSession())[index]
      await proxied.run({ program: 'var n = 1', bindings: [] })
      expect(await proxied.run({ program: 'return ++n', bindings: [] })).toEqual({ logs: [], value: 2 })
      const Session = Object.getPrototypeOf(proxied).constructor
      expect(await Session.prototype.run.call(proxied, { program: 'return n', bindings: [] })).toEqual({ logs: [], value: 2 })
      await proxied[Symbol.asyncDispose]()
      await expect(proxied.run({ program: 'return 1', bindings: [] })).rejects.toThrow('CodeSession.run() called after disposal')
    }
    const session = rt.openSession()
    const Session = Object.getPrototypeOf(session).constructor
    await expect(Session.prototype.run.call({}, { program: 'return 1', bindings: [] })).rejects.toThrow(new TypeError('CodeSession.run() called on an object that is not a CodeSession'))
    await expect(Session.prototype.dispose.call(new Proxy({}, {}))).rejects.toThrow(TypeError)
    await session.dispose()
  })

  test('the runtime disposing a session reached only through a Proxy still ends it', async () => {
    const rt = runtime()
    const [proxied] = proxiesOf(rt)
    const session = proxied.openSession()
    const pending = session.run({ program: 'for (;;) {}', bindings: [] })
    await rt.dispose()
    expect(await pending).toEqual({ logs: [], error: { kind: 'abort', message: 'runtime disposed' } })
  })
})

describe('QuickJSExecutor', () => {
  test('execute, runtime, dispose and asyncDispose through a Proxy and as prototype methods on one', async () => {
    const shared = runtime()
    for (const index of [0, 1, 2]) {
      const proxied = proxiesOf(new QuickJSExecutor({ runtime: shared }))[index]
      expect(await proxied.execute('async () => await codemode.add(1, 2)', { add: async (a: unknown, b: unknown) => Number(a) + Number(b) })).toEqual({ result: 3, logs: [] })
      expect(await QuickJSExecutor.prototype.execute.call(proxied, '40 + 2', [])).toEqual({ result: 42, logs: [] })
      expect(proxied.runtime).toBe(shared)
      await proxied[Symbol.asyncDispose]()
      expect(await proxied.execute('1', [])).toEqual({ result: undefined, error: 'QuickJSExecutor is disposed' })
    }
    const own = new QuickJSExecutor({ runtime: { threads: 1 } })
    await QuickJSExecutor.prototype.dispose.call(new Proxy(own, {}))
    await expect(own.runtime.run({ program: 'return 1', bindings: [] })).rejects.toThrow('after disposal')
    await expect(QuickJSExecutor.prototype.execute.call({}, '1', [])).rejects.toThrow(new TypeError('QuickJSExecutor.execute() used on an object that is not a QuickJSExecutor'))
    expect(() => Reflect.get(QuickJSExecutor.prototype, 'runtime', {})).toThrow(TypeError)
  })
})
