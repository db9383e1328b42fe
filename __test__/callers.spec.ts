/**
 * Hostile callers and hostile hosts: whatever the request, its getters and Proxies, the
 * signal, `onLog` or what a host function returns, the host process never crashes, `run()`
 * settles with a documented outcome, and a rejected `run()` never leaves a program running.
 *
 * Every case runs in a child Node process (several cases per child, one after another), as
 * in hostile.spec.ts: a crash shows up as that child dying, its case is recorded as the
 * crash, and a fresh child resumes at the next case. After each case the runner records
 * whether any run is left in flight, how much engine CPU is used in the 300 ms after it
 * (an orphaned `for (;;) {}` would use all of it), whether the same runtime still answers
 * `return 1`, and whether `dispose()` resolves.
 *
 * The `split` group runs with `CODE_RUNTIME_TEST_HOOKS=1` and
 * `CODE_RUNTIME_TEST_MAX_EVENT_BYTES=4096`, so the engine splits batches and refuses calls
 * at the sizes V8's longest string (~512 MiB) imposes, without needing gigabytes; the
 * `large` group checks the real limit once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CodeRuntimeConfig } from '../index'

type Group = 'main' | 'split' | 'large'

interface Record_ {
  name: string
  /** What the case's body returned. */
  out?: any // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The body threw (a runner failure, not an outcome). */
  threw?: string
  inFlight?: number
  idleCpuMs?: number
  followup?: boolean
  disposed?: boolean
  warnings?: string[]
}

interface Case {
  name: string
  group?: Group
  config?: CodeRuntimeConfig
  /**
   * Body of an async function run in the child with `rt` (a CodeRuntime with the config)
   * and `h` (helpers, see RUNNER); what it returns is `out`.
   */
  body: string
  check: (out: any, rec: Record_) => void // eslint-disable-line @typescript-eslint/no-explicit-any
}

const DEFAULTS: CodeRuntimeConfig = { computeMs: 300, maxWallMs: 3000, maxHeapMb: 64 }
const cases: Case[] = []
const add = (...cs: Case[]) => cases.push(...cs)

const RUN = 'CodeRuntime.run() '
/** `h.settle(rt.run(request))`: `{ value }`, `{ error: message }` (rejected) or `{ hung }`. */
const rejected = (out: { error?: string }, message: string | RegExp) => {
  expect(out, JSON.stringify(out)).toHaveProperty('error')
  if (typeof message === 'string') expect(out.error).toBe(message)
  else expect(out.error).toMatch(message)
}
const resolvedTo = (out: { value?: unknown }, value: unknown) => expect(out, JSON.stringify(out)).toEqual({ value })

// ─── read once: every field of the request and config is read exactly once ────────────────────
add(
  {
    name: 'once: errorClass.name answering ToolCallError, then eval, injects no global eval',
    body: String.raw`
      let reads = 0
      const errorClass = { get name() { return reads++ === 0 ? 'ToolCallError' : 'eval' }, memberNameProperty: 'toolName' }
      const r = await h.settle(rt.run({ program: "return [typeof ToolCallError, typeof eval, eval('1 + 1')]", bindings: h.ns({}, { errorClass }) }))
      return { r, reads }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: ['function', 'function', 2] })
      expect(o.reads).toBe(1)
    },
  },
  {
    name: 'once: errorClass.name answering ToolCallError, then console, leaves console alone',
    body: String.raw`
      let reads = 0
      const errorClass = { get name() { return reads++ === 0 ? 'ToolCallError' : 'console' }, memberNameProperty: 'toolName' }
      const r = await h.settle(rt.run({ program: "console.log('still', typeof ToolCallError); return 1", bindings: h.ns({}, { errorClass }) }))
      return { r, reads }`,
    check: (o) => {
      resolvedTo(o.r, { logs: ['still function'], value: 1 })
      expect(o.reads).toBe(1)
    },
  },
  {
    name: 'once: a global answering tools, then console, is injected as tools',
    body: String.raw`
      let reads = 0
      const ns = { get global() { return reads++ === 0 ? 'tools' : 'console' }, functions: { f: async () => 7 } }
      const r = await h.settle(rt.run({ program: "console.log('c'); return await tools.f({})", bindings: [ns] }))
      return { r, reads }`,
    check: (o) => {
      resolvedTo(o.r, { logs: ['c'], value: 7 })
      expect(o.reads).toBe(1)
    },
  },
  {
    name: 'once: memberNameProperty answering toolName, then name, sets toolName',
    body: String.raw`
      let reads = 0
      const errorClass = { name: 'ToolCallError', get memberNameProperty() { return reads++ === 0 ? 'toolName' : 'name' } }
      const functions = { fail: async () => { throw new Error('no') } }
      const r = await h.settle(rt.run({ program: "try { await tools.fail({}) } catch (e: any) { return [e.name, e.toolName, e.message, e instanceof ToolCallError] }", bindings: h.ns(functions, { errorClass }) }))
      return { r, reads }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: ['ToolCallError', 'fail', 'no', true] })
      expect(o.reads).toBe(1)
    },
  },
  {
    name: 'once: a member answering a function, then a number, is the function',
    body: String.raw`
      let reads = 0
      const functions = { get f() { return reads++ === 0 ? async () => 'called' : 42 } }
      const r = await h.settle(rt.run({ program: 'return await tools.f({})', bindings: h.ns(functions) }))
      return { r, reads }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: 'called' })
      expect(o.reads).toBe(1)
    },
  },
  {
    name: 'once: a request Proxy answering a new program on every read runs the first',
    body: String.raw`
      let reads = 0
      const request = new Proxy({}, { get: (t, k) => (k === 'program' ? 'return ' + ++reads : k === 'bindings' ? [] : undefined) })
      const r = await h.settle(rt.run(request))
      return { r, reads }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: 1 })
      expect(o.reads).toBe(1)
    },
  },
  {
    name: 'once: each field of a request, its namespaces, functions and error classes is read exactly once',
    body: String.raw`
      const counts = {}
      const count = (label, value) => { counts[label] = (counts[label] || 0) + 1; return value }
      const counting = (label, fields) => {
        const o = {}
        for (const [k, v] of Object.entries(fields)) Object.defineProperty(o, k, { enumerable: true, get: () => count(label + '.' + k, v) })
        return o
      }
      const errorClass = counting('errorClass', { name: 'ToolCallError', memberNameProperty: 'toolName' })
      const functions = counting('functions', { a: async () => 1, b: async () => 2 })
      const ns0 = counting('ns0', { global: 'tools', functions, errorClass })
      const ns1 = counting('ns1', { global: 'more', functions: counting('functions1', { c: async () => 3 }) })
      const bindings = new Proxy([ns0, ns1], { get: (t, k) => count('bindings.' + String(k), t[k]) })
      const signal = new AbortController().signal
      const request = counting('request', { program: 'return (await tools.a({})) + (await tools.b({})) + (await more.c({}))', bindings, signal, onLog: () => {} })
      const r = await h.settle(rt.run(request))
      return { r, counts }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: 6 })
      const fields = [
        'request.program', 'request.bindings', 'request.signal', 'request.onLog', 'bindings.length', 'bindings.0', 'bindings.1',
        'ns0.global', 'ns0.functions', 'ns0.errorClass', 'ns1.global', 'ns1.functions',
        'errorClass.name', 'errorClass.memberNameProperty', 'functions.a', 'functions.b', 'functions1.c',
      ] // prettier-ignore
      // (ns1 has no errorClass, so no getter counts its read.)
      expect(o.counts).toEqual(Object.fromEntries(fields.map((f) => [f, 1])))
    },
  },
  {
    name: 'once: each key of the config and of session options is read exactly once',
    body: String.raw`
      const counts = {}
      const counting = (label, fields) => {
        const o = {}
        for (const [k, v] of Object.entries(fields)) Object.defineProperty(o, k, { enumerable: true, get: () => { counts[label + '.' + k] = (counts[label + '.' + k] || 0) + 1; return v } })
        return o
      }
      const own = new h.CodeRuntime(counting('config', { computeMs: 500, maxWallMs: 5000, maxOutputBytes: 4096, maxHeapMb: 32, maxProgramBytes: 10000, threads: 1 }))
      const session = own.openSession(counting('session', { computeMs: 400, maxWallMs: 4000, maxOutputBytes: 2048, maxHeapMb: 16 }))
      const r = await h.settle(session.run({ program: 'return 5', bindings: [] }))
      await session.dispose()
      await own.dispose()
      return { r, counts }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: 5 })
      const keys = ['computeMs', 'maxWallMs', 'maxOutputBytes', 'maxHeapMb']
      expect(o.counts).toEqual(Object.fromEntries([...[...keys, 'maxProgramBytes', 'threads'].map((k) => ['config.' + k, 1]), ...keys.map((k) => ['session.' + k, 1])]))
    },
  },
  {
    name: 'once: a config value answering 1000, then a string, is 1000',
    body: String.raw`
      let reads = 0
      const own = new h.CodeRuntime({ get computeMs() { return reads++ === 0 ? 1000 : 'oops' } })
      const r = await h.settle(own.run({ program: 'return 1', bindings: [] }))
      await own.dispose()
      return { r, reads }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: 1 })
      expect(o.reads).toBe(1)
    },
  },
  {
    name: "once: a signal's aborted, addEventListener and removeEventListener are each used once per run",
    body: String.raw`
      const counts = { aborted: 0, add: 0, remove: 0 }
      const signal = new AbortController().signal
      const add = signal.addEventListener.bind(signal), remove = signal.removeEventListener.bind(signal)
      Object.defineProperty(signal, 'aborted', { get: () => { counts.aborted++; return false } })
      signal.addEventListener = (...a) => { counts.add++; return add(...a) }
      signal.removeEventListener = (...a) => { counts.remove++; return remove(...a) }
      const r = await h.settle(rt.run({ program: 'return 2', bindings: [], signal }))
      return { r, counts }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: 2 })
      expect(o.counts).toEqual({ aborted: 1, add: 1, remove: 1 })
    },
  },
)

// ─── getters and traps that throw: run() rejects naming the field ─────────────────────────────
const throwing = (key: string, base: string) => `(() => { const o = ${base}; Object.defineProperty(o, ${JSON.stringify(key)}, { enumerable: true, get() { throw new Error('boom') } }); return o })()`
const REQ = (extra = '') => `{ program: 'return 1', bindings: [] ${extra} }`
const NS = `{ global: 'tools', functions: { f: async () => 1 } }`
const getterCases: [string, string, string | RegExp][] = [
  ['request.program', throwing('program', `{ bindings: [] }`), `${RUN}request.program could not be read: Error: boom`],
  ['request.bindings', throwing('bindings', `{ program: 'return 1' }`), `${RUN}request.bindings could not be read: Error: boom`],
  ['request.signal', throwing('signal', REQ()), `${RUN}request.signal could not be read: Error: boom`],
  ['request.onLog', throwing('onLog', REQ()), `${RUN}request.onLog could not be read: Error: boom`],
  ['request.bindings[0].global', `{ program: 'return 1', bindings: [${throwing('global', `{ functions: {} }`)}] }`, `${RUN}request.bindings[0].global could not be read: Error: boom`],
  ['request.bindings[0].functions', `{ program: 'return 1', bindings: [${throwing('functions', `{ global: 'tools' }`)}] }`, `${RUN}request.bindings[0].functions could not be read: Error: boom`],
  ['request.bindings[0].errorClass', `{ program: 'return 1', bindings: [${throwing('errorClass', NS)}] }`, `${RUN}request.bindings[0].errorClass could not be read: Error: boom`],
  ['request.bindings[0].errorClass.name', `{ program: 'return 1', bindings: [{ ...${NS}, errorClass: ${throwing('name', `{ memberNameProperty: 'toolName' }`)} }] }`, `${RUN}request.bindings[0].errorClass.name could not be read: Error: boom`],
  ['request.bindings[0].errorClass.memberNameProperty', `{ program: 'return 1', bindings: [{ ...${NS}, errorClass: ${throwing('memberNameProperty', `{ name: 'ToolCallError' }`)} }] }`, `${RUN}request.bindings[0].errorClass.memberNameProperty could not be read: Error: boom`],
  ['a member of request.bindings[1].functions', `{ program: 'return 1', bindings: [${NS}, { global: 'more', functions: ${throwing('g', '{}')} }] }`, `${RUN}request.bindings[1].functions["g"] could not be read: Error: boom`],
  ['request.bindings[1] (a Proxy get trap)', `{ program: 'return 1', bindings: new Proxy([${NS}, {}], { get: (t, k) => { if (k === '1') throw new Error('boom'); return t[k] } }) }`, `${RUN}request.bindings[1] could not be read: Error: boom`],
  ['request.bindings.length (a Proxy get trap)', `{ program: 'return 1', bindings: new Proxy([], { get: (t, k) => { if (k === 'length') throw new Error('boom'); return t[k] } }) }`, `${RUN}request.bindings.length could not be read: Error: boom`],
  ["request.bindings[0].functions' keys (an ownKeys trap)", `{ program: 'return 1', bindings: [{ global: 'tools', functions: new Proxy({}, { ownKeys() { throw new Error('boom') } }) }] }`, `${RUN}request.bindings[0].functions' keys could not be read: Error: boom`],
  ['request.signal (a getPrototypeOf trap)', `{ program: 'return 1', bindings: [], signal: new Proxy({}, { getPrototypeOf() { throw new Error('boom') } }) }`, `${RUN}request.signal could not be read: Error: boom`],
  ['request.signal.aborted', `{ program: 'for (;;) {}', bindings: [], signal: ${throwing('aborted', 'new AbortController().signal')} }`, `${RUN}request.signal.aborted could not be read: Error: boom`],
  ['request.signal.aborted (a Proxy get trap)', `{ program: 'for (;;) {}', bindings: [], signal: new Proxy(new AbortController().signal, { get: (t, k) => { if (k === 'aborted') throw new Error('boom'); return Reflect.get(t, k) } }) }`, `${RUN}request.signal.aborted could not be read: Error: boom`],
]
for (const [field, request, message] of getterCases) {
  add({
    name: `throws: ${field} rejects run() naming it, and nothing runs`,
    body: `const started = rt.metrics().runs.started; const r = await h.settle(rt.run(${request})); return { r, started: rt.metrics().runs.started - started }`,
    check: (o) => {
      rejected(o.r, message)
      expect(o.started).toBe(0)
    },
  })
}
add(
  {
    name: 'throws: a revoked Proxy as the request rejects naming request.program',
    body: `const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return { r: await h.settle(rt.run(proxy)) }`,
    check: (o) => rejected(o.r, /^CodeRuntime\.run\(\) request\.program could not be read: TypeError: /),
  },
  {
    name: 'throws: a revoked Proxy as bindings rejects naming request.bindings',
    body: `const { proxy, revoke } = Proxy.revocable([], {}); revoke(); return { r: await h.settle(rt.run({ program: 'return 1', bindings: proxy })) }`,
    check: (o) => rejected(o.r, /^CodeRuntime\.run\(\) request\.bindings could not be read: TypeError: /),
  },
  {
    name: 'throws: a bindings Proxy claiming a length that is not an array length is refused',
    body: `return { r: await h.settle(rt.run({ program: 'return 1', bindings: new Proxy([], { get: (t, k) => (k === 'length' ? 'lots' : t[k]) }) })) }`,
    check: (o) => rejected(o.r, `${RUN}request.bindings.length must be an array length (got "lots")`),
  },
  {
    name: 'throws: a function as the request is described without calling its toString',
    body: `let called = false; const f = () => {}; f.toString = () => { called = true; return 'x' }; return { r: await h.settle(rt.run(f)), called }`,
    check: (o) => {
      rejected(o.r, `${RUN}request must be an object (got a function)`)
      expect(o.called).toBe(false)
    },
  },
  {
    name: 'throws: a config getter that throws makes the constructor throw naming it',
    body: `try { new h.CodeRuntime(${throwing('maxHeapMb', '{}')}); return 'constructed' } catch (e) { return [e.constructor.name, e.message] }`,
    check: (o) => expect(o).toEqual(['TypeError', 'CodeRuntime config.maxHeapMb could not be read: Error: boom']),
  },
  {
    name: "throws: a config Proxy whose ownKeys trap throws makes the constructor throw naming the config's keys",
    body: `try { new h.CodeRuntime(new Proxy({}, { ownKeys() { throw new Error('boom') } })); return 'constructed' } catch (e) { return [e.constructor.name, e.message] }`,
    check: (o) => expect(o).toEqual(['TypeError', "CodeRuntime config's keys could not be read: Error: boom"]),
  },
  {
    name: 'throws: a session options getter that throws makes openSession throw naming it',
    body: `try { rt.openSession(${throwing('computeMs', '{}')}); return 'opened' } catch (e) { return [e.constructor.name, e.message] }`,
    check: (o) => expect(o).toEqual(['TypeError', 'CodeRuntime.openSession() options.computeMs could not be read: Error: boom']),
  },
  {
    name: 'throws: a session run whose request getter throws rejects, and the session carries on',
    body: String.raw`
      const session = rt.openSession()
      const a = await h.settle(session.run(${throwing('program', '{ bindings: [] }')}))
      const b = await h.settle(session.run({ program: 'globalThis.k = 3; return k', bindings: [] }))
      await session.dispose()
      return { a, b }`,
    check: (o) => {
      rejected(o.a, `${RUN}request.program could not be read: Error: boom`)
      resolvedTo(o.b, { logs: [], value: 3 })
    },
  },
)

// ─── host functions returning hostile promises and thenables ─────────────────────────────────
/** The program: calls `tools.f` once and returns what it resolved to, or its rejection's message. */
const CALL_F = `try { return ['resolved', await tools.f({})] } catch (e: any) { return ['rejected', e.message] }`
const hostCases: [string, string, unknown, CodeRuntimeConfig?][] = [
  ["a Promise whose own then throws", `() => { const p = Promise.resolve(1); p.then = () => { throw new Error('x') }; return p }`, ['rejected', 'x']],
  ["a Promise whose own then throws a non-error", `() => { const p = Promise.resolve(1); p.then = () => { throw 42 }; return p }`, ['rejected', '42']],
  ['a Promise whose own then is a getter that throws', `() => { const p = Promise.resolve(1); Object.defineProperty(p, 'then', { get() { throw new Error('getter') } }); return p }`, ['rejected', 'getter']],
  ['a Promise whose own constructor getter throws', `() => { const p = Promise.resolve(1); Object.defineProperty(p, 'constructor', { get() { throw new Error('ctor') } }); return p }`, ['rejected', 'ctor']],
  ['a Promise subclass whose species throws', `() => { class P extends Promise { static get [Symbol.species]() { throw new Error('species') } } return P.resolve(1) }`, ['rejected', 'species']],
  ['a Promise subclass that resolves normally', `() => { class P extends Promise {} return P.resolve(5) }`, ['resolved', 5]],
  ['a thenable whose then throws', `() => ({ then() { throw new Error('thenable') } })`, ['rejected', 'thenable']],
  ['a thenable that resolves twice', `() => ({ then(res) { res(1); res(2) } })`, ['resolved', 1]],
  ['a thenable that resolves, then throws', `() => ({ then(res) { res('first'); throw new Error('after') } })`, ['resolved', 'first']],
  ['a thenable that rejects, then resolves', `() => ({ then(res, rej) { rej(new Error('no')); res('late') } })`, ['rejected', 'no']],
  ['a thenable that resolves later, from a timer', `() => ({ then(res) { setTimeout(() => res('later'), 20) } })`, ['resolved', 'later']],
  ['a thenable resolving to a thenable whose then throws', `() => ({ then(res) { res({ then() { throw new Error('inner') } }) } })`, ['rejected', 'inner']],
  ['a Promise resolving to a thenable whose then throws', `async () => ({ then() { throw new Error('nested') } })`, ['rejected', 'nested']],
  ['a Proxy whose get trap throws', `() => new Proxy({}, { get() { throw new Error('trap') } })`, ['rejected', 'trap']],
  ['a revoked Proxy', `() => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy }`, ['rejected', /Cannot perform 'get' on a proxy that has been revoked/]],
  ['a function with a then that throws', `() => { const f = () => {}; f.then = () => { throw new Error('fn') }; return f }`, ['rejected', 'fn']],
  ['a Promise rejecting with a reason whose message getter throws', `() => Promise.reject(Object.defineProperty(new Error('e'), 'message', { get() { throw new Error('m') } }))`, ['rejected', 'binding rejected with a reason that cannot be converted to a string']],
]
for (const [what, fn, expected] of hostCases) {
  add({
    name: `host: ${what}`,
    body: `return { r: await h.settle(rt.run({ program: ${JSON.stringify(CALL_F)}, bindings: h.ns({ f: ${fn} }) })) }`,
    check: (o) => {
      expect(o.r.value?.logs, JSON.stringify(o)).toEqual([])
      const [state, answer] = o.r.value.value
      expect(state).toBe((expected as unknown[])[0])
      const want = (expected as unknown[])[1]
      if (want instanceof RegExp) expect(answer).toMatch(want)
      else expect(answer).toEqual(want)
    },
  })
}
add(
  {
    name: 'host: a thenable that never settles leaves the run to end at maxWallMs',
    config: { maxWallMs: 400 },
    body: `return { r: await h.settle(rt.run({ program: 'return await tools.f({})', bindings: h.ns({ f: () => ({ then() {} }) }) })) }`,
    check: (o) => expect(o.r.value).toEqual({ logs: [], error: { kind: 'timeout', message: expect.stringMatching(/wall/) } }),
  },
  {
    name: 'host: 200 calls in one batch, every answer a Promise whose then throws, all reject',
    body: String.raw`
      const f = () => { const p = Promise.resolve(1); p.then = () => { throw new Error('x') }; return p }
      const program = 'const r = await Promise.allSettled(Array.from({ length: 200 }, () => tools.f({}))); return r.filter((s) => s.status === "rejected").length'
      return { r: await h.settle(rt.run({ program, bindings: h.ns({ f }) })) }`,
    check: (o) => resolvedTo(o.r, { logs: [], value: 200 }),
  },
  {
    name: 'host: a then that throws in one run leaves a concurrent run of the same runtime alone',
    body: String.raw`
      const bad = () => { const p = Promise.resolve(1); p.then = () => { throw new Error('x') }; return p }
      const [a, b] = await Promise.all([
        h.settle(rt.run({ program: ${JSON.stringify(CALL_F)}, bindings: h.ns({ f: bad }) })),
        h.settle(rt.run({ program: 'return (await tools.f({})) + 1', bindings: h.ns({ f: async () => 1 }) })),
      ])
      return { a, b }`,
    check: (o) => {
      resolvedTo(o.a, { logs: [], value: ['rejected', 'x'] })
      resolvedTo(o.b, { logs: [], value: 2 })
    },
  },
)

// ─── signals: a misbehaving signal rejects run() and leaves nothing running ───────────────────
/** A fresh AbortSignal (`controller` in scope) with `patch` applied to it as `s`. */
const SIGNAL = (patch: string) => `const controller = new AbortController(); let s = controller.signal; ${patch};`
const signalCases: { what: string; patch: string; program?: string; abortAfter?: number; config?: CodeRuntimeConfig; check: (o: any) => void }[] = [ // eslint-disable-line @typescript-eslint/no-explicit-any
  {
    what: 'addEventListener throws: run() rejects and for (;;) {} never starts',
    patch: `s.addEventListener = () => { throw new Error('ael') }`,
    check: (o) => {
      rejected(o.r, `${RUN}request.signal.addEventListener threw: Error: ael`)
      expect(o.started).toBe(0)
    },
  },
  {
    what: 'addEventListener is a getter that throws: run() rejects and nothing starts',
    patch: `Object.defineProperty(s, 'addEventListener', { get() { throw new Error('getter') } })`,
    check: (o) => {
      rejected(o.r, `${RUN}request.signal.addEventListener threw: Error: getter`)
      expect(o.started).toBe(0)
    },
  },
  {
    what: 'addEventListener is not a function: run() rejects and nothing starts',
    patch: `s.addEventListener = 5`,
    check: (o) => {
      rejected(o.r, /^CodeRuntime\.run\(\) request\.signal\.addEventListener threw: TypeError: /)
      expect(o.started).toBe(0)
    },
  },
  {
    what: 'addEventListener calls the listener at once: the run ends as abort without starting',
    patch: `s.addEventListener = (type, listener) => listener(); Object.defineProperty(s, 'reason', { value: 'early' })`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], error: { kind: 'abort', message: 'early' } })
      expect(o.cpuMs).toBeLessThan(50)
    },
  },
  {
    what: 'addEventListener keeps nothing: an abort is not seen and the run ends at its compute budget',
    patch: `s.addEventListener = () => {}`,
    abortAfter: 20,
    check: (o) => expect(o.r.value).toEqual({ logs: [], error: { kind: 'timeout', message: expect.stringMatching(/compute/) } }),
  },
  {
    what: 'addEventListener calls the listener again and again: the run ends once, as abort',
    patch: `const add = s.addEventListener.bind(s); s.addEventListener = (type, l, o) => { add(type, l, o); const t = setInterval(l, 5); setTimeout(() => clearInterval(t), 200) }; Object.defineProperty(s, 'reason', { value: 'again' })`,
    check: (o) => resolvedTo(o.r, { logs: [], error: { kind: 'abort', message: 'again' } }),
  },
  {
    what: 'removeEventListener throws: run() rejects once the run has ended',
    patch: `s.removeEventListener = () => { throw new Error('rel') }`,
    program: 'return 1',
    check: (o) => rejected(o.r, `${RUN}request.signal.removeEventListener threw: Error: rel`),
  },
  {
    what: 'removeEventListener throws after an abort: run() rejects and the run has stopped',
    patch: `s.removeEventListener = () => { throw new Error('rel') }`,
    abortAfter: 30,
    check: (o) => rejected(o.r, `${RUN}request.signal.removeEventListener threw: Error: rel`),
  },
  {
    what: 'the aborted getter answers true once: the run ends as abort without starting',
    patch: `let n = 0; Object.defineProperty(s, 'aborted', { get: () => n++ === 0 }); Object.defineProperty(s, 'reason', { value: 'first read' })`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], error: { kind: 'abort', message: 'first read' } })
      expect(o.started).toBe(1)
    },
  },
  {
    what: 'aborted already, with a reason getter that throws: abort with a fixed message',
    patch: `controller.abort(); Object.defineProperty(s, 'reason', { get() { throw new Error('r') } })`,
    check: (o) => resolvedTo(o.r, { logs: [], error: { kind: 'abort', message: 'the run was aborted (its abort reason could not be converted to a string)' } }),
  },
  {
    what: 'aborted during the run with a reason whose toString throws: abort with a fixed message',
    patch: `const reason = { toString() { throw new Error('ts') } }`,
    abortAfter: 30,
    check: (o) => resolvedTo(o.r, { logs: [], error: { kind: 'abort', message: 'the run was aborted (its abort reason could not be converted to a string)' } }),
  },
  {
    what: 'aborted during the run with a Symbol reason: abort with its description',
    patch: `const reason = Symbol('s')`,
    abortAfter: 30,
    check: (o) => resolvedTo(o.r, { logs: [], error: { kind: 'abort', message: 'Symbol(s)' } }),
  },
  {
    what: 'aborted during the run with a reason whose Symbol.toPrimitive throws: abort with a fixed message',
    patch: `const reason = { [Symbol.toPrimitive]() { throw new Error('prim') } }`,
    abortAfter: 30,
    check: (o) => resolvedTo(o.r, { logs: [], error: { kind: 'abort', message: 'the run was aborted (its abort reason could not be converted to a string)' } }),
  },
  {
    what: 'aborted during the run with a reason getter that throws: abort with a fixed message',
    patch: `Object.defineProperty(s, 'reason', { get() { throw new Error('r') } })`,
    abortAfter: 30,
    check: (o) => resolvedTo(o.r, { logs: [], error: { kind: 'abort', message: 'the run was aborted (its abort reason could not be converted to a string)' } }),
  },
  {
    what: 'aborted during the run with a 200,000-character reason over maxOutputBytes: output-limit',
    patch: `const reason = 'r'.repeat(200000)`,
    abortAfter: 30,
    config: { maxOutputBytes: 1000 },
    check: (o) => resolvedTo(o.r, { logs: [], error: { kind: 'output-limit', message: expect.stringMatching(/output exceeded 1000 bytes$/) } }),
  },
  {
    what: 'a Proxy of an AbortSignal works as the signal: aborting ends the run',
    patch: `const inner = s; s = new Proxy(inner, { get: (t, k) => { const v = Reflect.get(t, k); return typeof v === 'function' ? v.bind(t) : v } })`,
    abortAfter: 30,
    check: (o) => resolvedTo(o.r, { logs: [], error: { kind: 'abort', message: expect.stringMatching(/AbortError/) } }),
  },
]
for (const c of signalCases) {
  add({
    name: `signal: ${c.what}`,
    config: { computeMs: 400, ...(c.config ?? {}) },
    body: String.raw`
      ${SIGNAL(c.patch)}
      const started = rt.metrics().runs.started
      const cpu0 = rt.metrics().cpuMs
      ${c.abortAfter !== undefined ? `setTimeout(() => controller.abort(typeof reason === 'undefined' ? undefined : reason), ${c.abortAfter})` : ''}
      const r = await h.settle(rt.run({ program: ${JSON.stringify(c.program ?? 'for (;;) {}')}, bindings: [], signal: s }))
      return { r, started: rt.metrics().runs.started - started, cpuMs: rt.metrics().cpuMs - cpu0 }`,
    check: c.check,
  })
}
add(
  {
    name: 'signal: in a session, addEventListener throwing rejects that run; the session carries on',
    body: String.raw`
      ${SIGNAL(`s.addEventListener = () => { throw new Error('ael') }`)}
      const session = rt.openSession()
      const a = await h.settle(session.run({ program: 'for (;;) {}', bindings: [], signal: s }))
      const b = await h.settle(session.run({ program: 'return 4', bindings: [] }))
      await session.dispose()
      return { a, b }`,
    check: (o) => {
      rejected(o.a, `${RUN}request.signal.addEventListener threw: Error: ael`)
      resolvedTo(o.b, { logs: [], value: 4 })
    },
  },
  {
    name: 'signal: in a session, removeEventListener throwing rejects that run; the session carries on',
    body: String.raw`
      ${SIGNAL(`s.removeEventListener = () => { throw new Error('rel') }`)}
      const session = rt.openSession()
      const a = await h.settle(session.run({ program: 'globalThis.kept = 9; return 1', bindings: [], signal: s }))
      const b = await h.settle(session.run({ program: 'return kept', bindings: [] }))
      await session.dispose()
      return { a, b }`,
    check: (o) => {
      rejected(o.a, `${RUN}request.signal.removeEventListener threw: Error: rel`)
      resolvedTo(o.b, { logs: [], value: 9 })
    },
  },
  {
    name: 'signal: in a session, an aborted getter that throws rejects that run before it starts',
    body: String.raw`
      ${SIGNAL(`Object.defineProperty(s, 'aborted', { get() { throw new Error('a') } })`)}
      const session = rt.openSession()
      const a = await h.settle(session.run({ program: 'for (;;) {}', bindings: [], signal: s }))
      const b = await h.settle(session.run({ program: 'return 4', bindings: [] }))
      await session.dispose()
      return { a, b }`,
    check: (o) => {
      rejected(o.a, `${RUN}request.signal.aborted could not be read: Error: a`)
      resolvedTo(o.b, { logs: [], value: 4 })
    },
  },
)

// ─── onLog ────────────────────────────────────────────────────────────────────────────────
const LOGS = `for (let i = 0; i < 3; i++) console.log('line', i); return 1`
const LINES = ['line 0', 'line 1', 'line 2']
add(
  {
    name: 'onLog: throwing is reported once; every entry is still delivered and kept',
    body: `const seen = []; const r = await h.settle(rt.run({ program: ${JSON.stringify(LOGS)}, bindings: [], onLog: (l) => { seen.push(l); throw new Error('log') } })); await h.sleep(20); return { r, seen }`,
    check: (o, rec) => {
      resolvedTo(o.r, { logs: LINES, value: 1 })
      expect(o.seen).toEqual(LINES)
      expect(rec.warnings).toEqual(['CODE_RUNTIME_ONLOG_THREW: CodeRuntime.run() request.onLog threw; later entries of this run are still delivered and kept in result.logs: Error: log'])
    },
  },
  {
    name: 'onLog: returning a rejecting promise is reported once, and is no unhandled rejection',
    body: `const seen = []; const r = await h.settle(rt.run({ program: ${JSON.stringify(LOGS)}, bindings: [], onLog: (l) => { seen.push(l); return Promise.reject(new Error('later')) } })); await h.sleep(20); return { r, seen }`,
    check: (o, rec) => {
      resolvedTo(o.r, { logs: LINES, value: 1 })
      expect(o.seen).toEqual(LINES)
      expect(rec.warnings).toEqual(['CODE_RUNTIME_ONLOG_THREW: CodeRuntime.run() request.onLog rejected; later entries of this run are still delivered and kept in result.logs: Error: later'])
    },
  },
  {
    name: 'onLog: an async onLog that throws is reported once',
    body: `const r = await h.settle(rt.run({ program: ${JSON.stringify(LOGS)}, bindings: [], onLog: async () => { throw new Error('async') } })); await h.sleep(20); return { r }`,
    check: (o, rec) => {
      resolvedTo(o.r, { logs: LINES, value: 1 })
      expect(rec.warnings).toEqual(['CODE_RUNTIME_ONLOG_THREW: CodeRuntime.run() request.onLog rejected; later entries of this run are still delivered and kept in result.logs: Error: async'])
    },
  },
  {
    name: 'onLog: a thenable it returns is ignored (its then is never called)',
    body: `let called = false; const r = await h.settle(rt.run({ program: ${JSON.stringify(LOGS)}, bindings: [], onLog: () => ({ then() { called = true; throw new Error('t') } }) })); await h.sleep(20); return { r, called }`,
    check: (o, rec) => {
      resolvedTo(o.r, { logs: LINES, value: 1 })
      expect(o.called).toBe(false)
      expect(rec.warnings).toEqual([])
    },
  },
  {
    name: 'onLog: throwing while process.emitWarning itself throws loses the warning, not the run',
    body: String.raw`
      const emit = process.emitWarning
      process.emitWarning = () => { throw Object.defineProperty(new Error(), 'message', { get() { throw new Error('m') } }) }
      try {
        return { r: await h.settle(rt.run({ program: ${JSON.stringify(LOGS)}, bindings: [], onLog: () => { throw new Error('log') } })) }
      } finally {
        process.emitWarning = emit
      }`,
    check: (o) => resolvedTo(o.r, { logs: LINES, value: 1 }),
  },
  {
    name: 'onLog: throwing a value whose toString throws is reported once, as unprintable',
    body: `const r = await h.settle(rt.run({ program: ${JSON.stringify(LOGS)}, bindings: [], onLog: () => { throw { toString() { throw new Error('no') } } } })); await h.sleep(20); return { r }`,
    check: (o, rec) => {
      resolvedTo(o.r, { logs: LINES, value: 1 })
      expect(rec.warnings).toEqual(['CODE_RUNTIME_ONLOG_THREW: CodeRuntime.run() request.onLog threw; later entries of this run are still delivered and kept in result.logs: an unprintable value'])
    },
  },
)

// ─── batches too long for one event (split group: events of at most 4096 bytes) ───────────────
const TOO_LARGE = 'binding arguments are too large to hand to the host: their JSON is over 4032 bytes'
add(
  {
    name: 'split: 30 calls of 1,000 characters each, in one batch, all reach the host in order',
    group: 'split',
    body: String.raw`
      const seen = []
      const program = "const s = 'x'.repeat(1000); const ps = []; for (let i = 0; i < 30; i++) ps.push(tools.sink(i + ':' + s)); return (await Promise.all(ps)).join(',')"
      const r = await h.settle(rt.run({ program, bindings: h.ns({ sink: async (a) => { seen.push(parseInt(a)); return a.length } }) }))
      return { r, seen }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: Array.from({ length: 30 }, (_, i) => 1001 + String(i).length).join(',') })
      expect(o.seen).toEqual(Array.from({ length: 30 }, (_, i) => i))
    },
  },
  {
    name: 'split: the issue program at 4 KiB events (30 sinks of an over-long string) rejects each sink and returns',
    group: 'split',
    body: String.raw`
      let sinks = 0
      const program = "const s = 'x'.repeat(2e4); const out = []; for (let i = 0; i < 30; i++) tools.sink(s).catch((e) => out.push(e.message)); const d = await tools.done(0); return [d, out.length, out[0]]"
      const r = await h.settle(rt.run({ program, bindings: h.ns({ sink: async () => { sinks++ }, done: async (x) => x }) }))
      return { r, sinks }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: [0, 30, TOO_LARGE] })
      expect(o.sinks).toBe(0)
    },
  },
  {
    name: 'split: an argument just within the limit crosses, one byte over rejects',
    group: 'split',
    body: String.raw`
      const program = "const out = []; for (const n of [4030, 4031, 10]) { try { out.push(await tools.len('y'.repeat(n))) } catch (e: any) { out.push(e.message) } } return out"
      return { r: await h.settle(rt.run({ program, bindings: h.ns({ len: async (a) => a.length }) })) }`,
    check: (o) => resolvedTo(o.r, { logs: [], value: [4030, TOO_LARGE, 10] }),
  },
  {
    name: "split: the refusal is an instance of the namespace's error class, naming the member",
    group: 'split',
    body: String.raw`
      const program = "try { await tools.big({ s: 'q'.repeat(5000) }) } catch (e: any) { return [e instanceof ToolCallError, e.toolName, e.message] }"
      return { r: await h.settle(rt.run({ program, bindings: h.ns({ big: async () => 1 }, { errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' } }) })) }`,
    check: (o) => resolvedTo(o.r, { logs: [], value: [true, 'big', TOO_LARGE] }),
  },
  {
    name: 'split: 5,000 small calls in one slice all settle',
    group: 'split',
    body: String.raw`
      const program = "const ps = []; for (let i = 0; i < 5000; i++) ps.push(tools.id(i)); const r = await Promise.all(ps); return r.reduce((a, b) => a + b, 0)"
      return { r: await h.settle(rt.run({ program, bindings: h.ns({ id: async (x) => x }) })) }`,
    check: (o) => resolvedTo(o.r, { logs: [], value: (4999 * 5000) / 2 }),
  },
  {
    name: 'split: a result too long for one event ends the run as worker-exit, and the host lives',
    group: 'split',
    body: `return { r: await h.settle(rt.run({ program: "return 'z'.repeat(5000)", bindings: [] })) }`,
    check: (o) =>
      resolvedTo(o.r, { logs: [], error: { kind: 'worker-exit', message: expect.stringMatching(/^the run was stopped: its result came to \d+ bytes of JSON, more than one Node string can hold$/) } }),
  },
  {
    name: 'split: one live log line too long for one event ends the run as worker-exit',
    group: 'split',
    body: `return { r: await h.settle(rt.run({ program: "console.log('l'.repeat(5000)); await new Promise((r) => setTimeout(r, 50)); return 1", bindings: [], onLog: () => {} })) }`,
    check: (o) =>
      resolvedTo(o.r, { logs: [], error: { kind: 'worker-exit', message: expect.stringMatching(/^the run was stopped: its live logs came to \d+ bytes of JSON/) } }),
  },
)

// ─── the real limit: V8's longest string ───────────────────────────────────────────────────────
add(
  {
    name: 'large: 30 calls of a 20 MB string (600 MB in one batch) all reach the host',
    group: 'large',
    config: { computeMs: 60_000, maxWallMs: 120_000, maxHeapMb: 2048 },
    body: String.raw`
      let total = 0
      const program = "const s = 'x'.repeat(2e7); for (let i = 0; i < 30; i++) tools.sink(s); return await tools.done(0)"
      const r = await h.settle(rt.run({ program, bindings: h.ns({ sink: async (a) => { total += a.length }, done: async (x) => x }) }), 110000)
      return { r, total }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: 0 })
      expect(o.total).toBe(30 * 2e7)
    },
  },
  {
    name: 'large: one argument longer than a V8 string rejects in the program',
    group: 'large',
    config: { computeMs: 60_000, maxWallMs: 120_000, maxHeapMb: 2048 },
    body: String.raw`
      let calls = 0
      const program = "try { await tools.sink('x'.repeat(6e8)); return 'crossed' } catch (e: any) { return e.message }"
      return { r: await h.settle(rt.run({ program, bindings: h.ns({ sink: async () => { calls++ } }) }), 110000), calls }`,
    check: (o) => {
      resolvedTo(o.r, { logs: [], value: 'binding arguments are too large to hand to the host: their JSON is over 536870824 bytes' })
      expect(o.calls).toBe(0)
    },
  },
)

// ─── the runner ─────────────────────────────────────────────────────────────────────────────
const RUNNER = String.raw`
'use strict'
const fs = require('fs')
const { CodeRuntime } = require(process.env.CALLERS_ENTRY)
const [casesFile, fromArg] = process.argv.slice(2)
const cases = JSON.parse(fs.readFileSync(casesFile, 'utf8'))
const DEFAULTS = JSON.parse(process.env.CALLERS_DEFAULTS)
const out = (o) => fs.writeSync(1, (typeof o === 'string' ? o : JSON.stringify(o)) + '\n')
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const settle = (p, ms = 20000) => new Promise((resolve) => {
  const t = setTimeout(() => resolve({ hung: true }), ms)
  p.then((value) => { clearTimeout(t); resolve({ value }) }, (e) => { clearTimeout(t); resolve({ error: String(e && e.message) }) })
})
const ns = (functions, extra) => [{ global: 'tools', functions, ...(extra || {}) }]
let warnings = []
process.on('warning', (w) => warnings.push(w.code + ': ' + w.message))
const AsyncFunction = (async () => {}).constructor

;(async () => {
  for (let i = Number(fromArg || 0); i < cases.length; i++) {
    const c = cases[i]
    out({ start: c.name })
    const rec = { name: c.name }
    const rt = new CodeRuntime({ ...DEFAULTS, ...(c.config || {}) })
    warnings = []
    try {
      rec.out = await new AsyncFunction('rt', 'h', c.body)(rt, { CodeRuntime, settle, sleep, ns })
    } catch (e) {
      rec.threw = String(e && e.stack)
    }
    rec.warnings = warnings
    // Nothing left running: no run in flight, and (an orphaned loop would spin) no CPU.
    await sleep(50)
    const cpu0 = rt.metrics().cpuMs
    await sleep(300)
    rec.idleCpuMs = rt.metrics().cpuMs - cpu0
    rec.inFlight = rt.metrics().runs.inFlight
    const f = await settle(rt.run({ program: 'return 1', bindings: [] }))
    rec.followup = 'value' in f && JSON.stringify(f.value) === '{"logs":[],"value":1}'
    const d = await settle(rt.dispose())
    rec.disposed = 'value' in d
    out(rec)
  }
  out('done')
})()
`

interface Child {
  group: Group
  from: number
  status: number | null
  signal: string | null
  done: boolean
  crashedIn?: string
  stderrTail: string
}

const results = new Map<string, Record_>()
const children: Child[] = []
let dir = ''

function runGroup(group: Group, env: NodeJS.ProcessEnv) {
  const own = cases.filter((c) => (c.group ?? 'main') === group)
  const casesFile = join(dir, `${group}.json`)
  writeFileSync(casesFile, JSON.stringify(own.map(({ name, config, body }) => ({ name, config, body }))))
  let from = 0
  while (from < own.length) {
    const p = spawnSync(process.execPath, [join(dir, 'runner.cjs'), casesFile, String(from)], { encoding: 'utf8', env, timeout: 400_000, maxBuffer: 1 << 26, killSignal: 'SIGKILL' })
    let pending: string | undefined
    let done = false
    for (const line of (p.stdout ?? '').split('\n')) {
      if (line === 'done') done = true
      if (!line.startsWith('{')) continue
      const rec = JSON.parse(line)
      if (rec.start !== undefined) pending = rec.start
      else {
        results.set(rec.name, rec)
        pending = undefined
      }
    }
    children.push({ group, from, status: p.status, signal: p.signal, done, crashedIn: pending, stderrTail: (p.stderr ?? '').slice(-3000) })
    if (done) break
    const last = pending ?? [...results.keys()].pop()
    const idx = last === undefined ? -1 : own.findIndex((c) => c.name === last)
    if (idx + 1 <= from) break
    from = idx + 1
  }
}

beforeAll(() => {
  const names = new Set<string>()
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`duplicate case name ${c.name}`)
    names.add(c.name)
  }
  dir = mkdtempSync(join(tmpdir(), 'callers-'))
  writeFileSync(join(dir, 'runner.cjs'), RUNNER)
  const env = { ...process.env, CALLERS_ENTRY: join(__dirname, '..', 'index.js'), CALLERS_DEFAULTS: JSON.stringify(DEFAULTS) }
  delete env.CODE_RUNTIME_TEST_HOOKS
  delete env.CODE_RUNTIME_TEST_MAX_EVENT_BYTES
  runGroup('main', env)
  runGroup('split', { ...env, CODE_RUNTIME_TEST_HOOKS: '1', CODE_RUNTIME_TEST_MAX_EVENT_BYTES: '4096' })
  runGroup('large', env)
}, 900_000)

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  if (process.env.CALLERS_REPORT) writeFileSync(process.env.CALLERS_REPORT, JSON.stringify({ children, results: [...results.values()] }, null, 1))
})

describe('hostile callers and hosts, in child processes', () => {
  test('the corpus has at least 80 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(80)
  })

  test('every child stays alive through its cases, prints done and exits 0', () => {
    const summary = JSON.stringify(children, null, 2)
    expect(children.map((c) => c.group), summary).toEqual(['main', 'split', 'large'])
    for (const child of children) {
      expect(child.done, summary).toBe(true)
      expect(child.status, summary).toBe(0)
    }
  })

  test.each(cases.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const rec = results.get(name)
    const died = children.find((ch) => ch.crashedIn === name)
    expect(rec, died ? `the child died running this case: ${JSON.stringify(died)}` : 'no result (the child died earlier)').toBeDefined()
    const where = JSON.stringify(rec).slice(0, 2000)
    expect(rec!.threw, where).toBeUndefined()
    c.check(rec!.out, rec!)
    expect(rec!.inFlight, `a run was left in flight: ${where}`).toBe(0)
    expect(rec!.idleCpuMs, `the engine kept computing after the case: ${where}`).toBeLessThan(30)
    expect(rec!.followup, `the follow-up "return 1" failed: ${where}`).toBe(true)
    expect(rec!.disposed, `dispose() did not resolve: ${where}`).toBe(true)
  })
})
