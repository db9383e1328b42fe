import { afterAll, describe, expect, test } from 'vitest'
import type { CodeBindingFunction, CodeBindingNamespace } from '../index'
import { runtime } from './helpers'

const rt = runtime()
afterAll(() => rt.dispose())

const TOOL_ERROR = { name: 'ToolCallError', memberNameProperty: 'toolName' }
const tools = (functions: Record<string, CodeBindingFunction>, errorClass?: typeof TOOL_ERROR): CodeBindingNamespace =>
  errorClass ? { global: 'tools', functions, errorClass } : { global: 'tools', functions }
const run = (program: string, ...bindings: CodeBindingNamespace[]) => rt.run({ program, bindings })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const ARGS_NOT_LOSSLESS = 'binding arguments must be lossless JSON'
const RESOLUTION_NOT_LOSSLESS = 'binding resolution must be lossless JSON'

/** Program text: calls `tools.<member>(<args>)` and returns how the call settled. */
const settle = (call: string) => `
  try {
    return { resolved: await ${call} }
  } catch (e: any) {
    return {
      isToolCallError: typeof ToolCallError === 'function' && e instanceof ToolCallError,
      isError: e instanceof Error,
      name: e.name,
      toolName: e.toolName === undefined ? '<undefined>' : e.toolName,
      message: e.message,
    }
  }`

const typed = (member: string, message: string) => ({
  isToolCallError: true,
  isError: true,
  name: 'ToolCallError',
  toolName: member,
  message,
})

describe('calls cross as detached lossless JSON', () => {
  test('a nested JSON value makes an exact echo round trip', async () => {
    const value = { a: [1, -2.5, 'three', null, true, false, { b: { c: [[], {}, ''] } }], 'key with spaces': 'ü\u2028😀', n: 1e300 }
    const r = await run(`const v = ${JSON.stringify(value)}; return await tools.echo(v)`, tools({ echo: async (a) => a as any }))
    expect(r).toEqual({ logs: [], value })
  })

  test('the host receives a detached copy: neither side sees the other mutate it', async () => {
    let received: any
    const take: CodeBindingFunction = async (args) => {
      received = args
      received.list.push('host')
      received.added = true
      return 'ok'
    }
    const r = await run(
      `const v: any = { list: [1] }
       const p = tools.take(v)
       v.list.push('program')
       v.late = true
       await p
       return v`,
      tools({ take }),
    )
    expect(r).toEqual({ logs: [], value: { list: [1, 'program'], late: true } })
    expect(received).toEqual({ list: [1, 'host'], added: true })
  })
})

describe('rejections', () => {
  test.each<[string, CodeBindingFunction, unknown]>([
    ['a host Error rejection carries error.message', async () => Promise.reject(new TypeError('host failed')), typed('m', 'host failed')],
    ['a string rejection carries the string', () => Promise.reject('plain words'), typed('m', 'plain words')],
    ['a synchronous throw is a rejection', () => { throw new Error('thrown at once') }, typed('m', 'thrown at once')],
    ['a non-Error, non-string rejection carries String(reason)', () => Promise.reject(42), typed('m', '42')],
    ['a non-Promise return value resolves normally', (() => ({ sync: [1] })) as any, { resolved: { sync: [1] } }],
  ])('with an error class, %s', async (_, fn, expected) => {
    const r = await run(settle('tools.m({ x: 1 })'), tools({ m: fn }, TOOL_ERROR))
    expect(r).toEqual({ logs: [], value: expected })
  })

  test('with an error class, a rejection whose String(reason) throws still rejects with a non-empty message', async () => {
    const reason = { toString() { throw new Error('cannot print') } }
    const r = await run(settle('tools.m(1)'), tools({ m: () => Promise.reject(reason) }, TOOL_ERROR))
    expect(r.error).toBeUndefined()
    const v = r.value as any
    expect({ ...v, message: '<checked below>' }).toEqual({ ...typed('m', 'x'), message: '<checked below>' })
    expect(typeof v.message).toBe('string')
    expect(v.message.length).toBeGreaterThan(0)
  })

  test('the error class is a real global constructor whose instances carry the member name', async () => {
    const r = await run(
      `const e: any = await tools.bad(null).catch((e: any) => e)
       const made: any = new ToolCallError('by hand')
       return [typeof ToolCallError, Object.getPrototypeOf(e) === ToolCallError.prototype,
         made instanceof ToolCallError, made instanceof Error, made.message, e.toolName]`,
      tools({ bad: async () => { throw new Error('no') } }, TOOL_ERROR),
    )
    expect(r).toEqual({ logs: [], value: ['function', true, true, true, 'by hand', 'bad'] })
  })

  test('without an error class, rejections are plain Errors', async () => {
    const r = await run(
      `try { await tools.m(1) } catch (e: any) {
         return [e instanceof Error, Object.getPrototypeOf(e) === Error.prototype, e.name, e.message, typeof ToolCallError]
       }`,
      tools({ m: async () => { throw new Error('plain') } }),
    )
    expect(r).toEqual({ logs: [], value: [true, true, 'Error', 'plain', 'undefined'] })
  })
})

describe('arguments must be lossless JSON', () => {
  test.each([
    ['a Date', 'new Date(0)'],
    ['an array with an extra property', '(() => { const a: any = [1, 2]; a.extra = 1; return a })()'],
    ['a function', '() => 1'],
    ['-0', '-0'],
    ['nested -0', '{ a: [0, -0] }'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['a sparse array', '[1, , 3]'],
    ['a cycle', '(() => { const o: any = { a: {} }; o.a.back = o; return o })()'],
    ['a Map', 'new Map([[1, 2]])'],
    ['undefined', 'undefined'],
    ['nested undefined', '{ a: undefined }'],
    ['a BigInt', '10n'],
    ['a Proxy', 'new Proxy({}, {})'],
    ['an accessor property', '{ get x() { return 1 } }'],
    ['no argument', ''],
    ['two arguments', '1, 2'],
  ])('%s is rejected and the host function is never called', async (_, args) => {
    const calls: unknown[] = []
    const f: CodeBindingFunction = async (a) => {
      calls.push(a)
      return 'called'
    }
    const r = await run(
      `let rejected: any
       try { rejected = { resolved: await tools.f(${args}) } } catch (e: any) {
         rejected = { isToolCallError: e instanceof ToolCallError, toolName: e.toolName, message: e.message }
       }
       return { rejected, after: await tools.f('valid') }`,
      tools({ f }, TOOL_ERROR),
    )
    expect(r).toEqual({
      logs: [],
      value: { rejected: { isToolCallError: true, toolName: 'f', message: ARGS_NOT_LOSSLESS }, after: 'called' },
    })
    expect(calls).toEqual(['valid'])
  })
})

describe('resolutions must be lossless JSON', () => {
  class Instance {
    x = 1
  }
  const cycle: any = { a: [] }
  cycle.a.push(cycle)
  /** `depth` levels of alternating `{ k }` and `[ ]`; the innermost refers back to level `to`. */
  const deepCycle = (depth: number, to: number) => {
    const levels: any[] = []
    for (let i = 0; i < depth; i++) levels.push(i % 2 ? [] : {})
    for (let i = 0; i + 1 < depth; i++) {
      if (Array.isArray(levels[i])) levels[i].push(levels[i + 1])
      else levels[i].k = levels[i + 1]
    }
    const last = levels[depth - 1]
    if (Array.isArray(last)) last.push(levels[to])
    else last.k = levels[to]
    return levels[0]
  }
  const hidden = Object.defineProperty({ a: 1 }, 'b', { value: 2, enumerable: false })
  // Three own names besides `length` (0, 2, x) for a length of 3: only their order tells.
  const sparseWithExtra: any = [1, , 3]
  sparseWithExtra.x = 1
  test.each<[string, unknown]>([
    ['a function', () => 1],
    ['a Date', new Date(0)],
    ['NaN', NaN],
    ['-0', -0],
    ['undefined', undefined],
    ['an object with a throwing getter', { get x() { throw new Error('getter ran') } }],
    ['a BigInt', 10n],
    ['a class instance', new Instance()],
    ['a cycle', cycle],
    ['a cycle 100 levels down, back to the top', deepCycle(100, 0)],
    ['a cycle 100 levels down, back to level 60', deepCycle(100, 60)],
    ['a cycle 40 levels down, back to level 35', deepCycle(40, 35)],
    ['a symbol key', { a: 1, [Symbol('s')]: 2 }],
    ['a non-enumerable property', hidden],
    ['a non-enumerable array element', Object.defineProperty([1, 2], 1, { value: 2, enumerable: false })],
    ['an array element behind a getter', Object.defineProperty([1, 2], 1, { get: () => 2, enumerable: true })],
    ['a nested undefined', { a: [undefined] }],
    ['a sparse array', [1, , 3]],
    ['a sparse array with an extra property as many names long', sparseWithExtra],
    ['an array with an extra property', Object.assign([1, 2], { x: 1 })],
    ['an array with a non-enumerable extra property', Object.defineProperty([1], 'x', { value: 1 })],
    ['an array with a symbol key', Object.assign([1], { [Symbol('s')]: 1 })],
    ['a RegExp match (an array with index, input and groups)', 'abc'.match(/b/)],
    ['an array element with only a setter', Object.defineProperty([1, 2], 1, { set() {}, enumerable: true })],
    ['a property with only a setter', Object.defineProperty({}, 'x', { set() {}, enumerable: true })],
    ['a Proxy', new Proxy({ a: 1 }, {})],
    ['a Proxy of an array inside an array', [1, new Proxy([2], {})]],
  ])('%s rejects the program-side call', async (_, value) => {
    const r = await run(settle('tools.m(1)'), tools({ m: async () => value as any }, TOOL_ERROR))
    expect(r).toEqual({ logs: [], value: typed('m', RESOLUTION_NOT_LOSSLESS) })
  })
})

test('thousands of objects keyed alike, in other orders, with __proto__ and index keys, cross exactly', async () => {
  const rows: any[] = []
  for (let i = 0; i < 3000; i++) {
    if (i % 5 === 0) rows.push({ name: 'n' + i, id: i })
    else if (i % 7 === 0) rows.push(JSON.parse(`{"__proto__": {"p": ${i}}, "id": ${i}}`))
    else if (i % 11 === 0) rows.push({ 2: 'b', 1: 'a', id: i, [`k${i % 3}`]: [i, -i, i / 3] })
    else rows.push({ id: i, name: 'n' + i, even: i % 2 === 0, tags: ['t' + (i % 4)], nested: { at: i } })
  }
  const r = await run(
    `const v: any[] = await tools.rows(null)
     const protos = v.every((o) => Object.getPrototypeOf(o) === Object.prototype)
     v[1].extra = 1
     delete v[2].id
     return { json: JSON.stringify(v), protos, third: Object.keys(v[3]), ownProto: v[7].__proto__.p }`,
    tools({ rows: async () => rows }),
  )
  const expected = JSON.parse(JSON.stringify(rows))
  expected[1].extra = 1
  delete expected[2].id
  expect(r.value).toEqual({ json: JSON.stringify(expected), protos: true, third: Object.keys(rows[3]), ownProto: 7 })
})

test('one object reached twice, at any depth, is not a cycle; a refused value leaves the next one unaffected', async () => {
  const shared = { v: 1 }
  let deep: any = { a: shared, b: shared }
  for (let i = 0; i < 50; i++) deep = { k: deep, s: shared }
  const looped: any = { a: 1 }
  looped.self = looped
  const answers = [looped, deep]
  const r = await run(
    `let refused = ''
     try { await tools.next(null) } catch (e: any) { refused = e.message }
     let v: any = await tools.next(null)
     let levels = 0
     while (v.k) { v = v.k; levels++ }
     return { refused, levels, leaves: v.a.v + v.b.v }`,
    tools({ next: async () => answers.shift() }, TOOL_ERROR),
  )
  expect(r).toEqual({ logs: [], value: { refused: RESOLUTION_NOT_LOSSLESS, levels: 50, leaves: 2 } })
})

describe('no depth limit', () => {
  const DEPTH = 10_000
  /** Depth of a value nested as alternating `[v]` and `{ k: v }` around the leaf `'leaf'`. */
  const depthOf = (v: any) => {
    let d = 0
    while (typeof v === 'object' && v !== null) {
      v = Array.isArray(v) ? v[0] : v.k
      d++
    }
    return v === 'leaf' ? d : -1
  }

  test('a 10,000-deep argument crosses to the host intact', async () => {
    let seen = -2
    const r = await run(
      `let v: any = 'leaf'
       for (let i = 0; i < ${DEPTH}; i++) v = i % 2 ? [v] : { k: v }
       return await tools.depth(v)`,
      tools({ depth: async (a) => (seen = depthOf(a)) }),
    )
    expect(seen).toBe(DEPTH)
    expect(r).toEqual({ logs: [], value: DEPTH })
  })

  test('a 10,000-deep resolution crosses back to the program intact', async () => {
    const deep = () => {
      let v: any = 'leaf'
      for (let i = 0; i < DEPTH; i++) v = i % 2 ? [v] : { k: v }
      return v
    }
    const r = await run(
      `let v: any = await tools.deep(null)
       let d = 0
       while (typeof v === 'object' && v !== null) { v = Array.isArray(v) ? v[0] : v.k; d++ }
       return v === 'leaf' ? d : -1`,
      tools({ deep: async () => deep() }),
    )
    expect(r).toEqual({ logs: [], value: DEPTH })
  })
})

describe('the namespace object', () => {
  test('__proto__, constructor and toString are ordinary members of a null-prototype namespace', async () => {
    const functions: Record<string, CodeBindingFunction> = {}
    for (const name of ['__proto__', 'constructor', 'toString']) {
      Object.defineProperty(functions, name, { value: async (a: any) => ({ member: name, a }), enumerable: true })
    }
    const r = await run(
      `return {
         calls: [await tools.__proto__(1), await tools.constructor(2), await tools.toString(3), await tools['__proto__'](4)],
         nullProto: Object.getPrototypeOf(tools) === null,
         own: Object.getOwnPropertyNames(tools).sort(),
         hasOwnProperty: tools.hasOwnProperty === undefined,
         undeclared: (tools as any).nope === undefined && !('hasOwnProperty' in tools),
       }`,
      tools(functions),
    )
    expect(r).toEqual({
      logs: [],
      value: {
        calls: [
          { member: '__proto__', a: 1 },
          { member: 'constructor', a: 2 },
          { member: 'toString', a: 3 },
          { member: '__proto__', a: 4 },
        ],
        nullProto: true,
        own: ['__proto__', 'constructor', 'toString'],
        hasOwnProperty: true,
        undeclared: true,
      },
    })
  })
})

describe('programs that replace built-ins', () => {
  test('hostile globals do not change how arguments, resolutions, errors and the completion cross', async () => {
    const sent = { list: [1, 'two', { three: [3, [null]] }], t: true, f: false, n: null, s: 'str', x: -1.5 }
    const resolution = { arr: [1, [2, { x: 'y' }]], empty: { a: [], o: {} }, s: 'str' }
    let received: unknown
    const r = await run(
      `const OrigError = Error, getProto = Object.getPrototypeOf, ObjectProto = Object.prototype, ArrayProto = Array.prototype
       const boom = (what: string) => function () { throw new OrigError(what + ' was called') }
       Array.isArray = boom('Array.isArray') as any
       Array.prototype.push = boom('push')
       Object.keys = boom('Object.keys') as any
       JSON.stringify = boom('JSON.stringify')
       JSON.parse = boom('JSON.parse')
       Promise.prototype.then = boom('then') as any
       ;(globalThis as any).Object = undefined
       ;(globalThis as any).Error = boom('Error')
       const got: any = await tools.echo(${JSON.stringify(sent)})
       let failure: any = 'no failure'
       try { await tools.fail(1) } catch (e: any) {
         failure = [e instanceof ToolCallError, e instanceof OrigError, e.name, e.toolName, e.message]
       }
       let lossy: any = 'no rejection'
       try { await tools.echo([1, , 3]) } catch (e: any) { lossy = [e instanceof ToolCallError, e.message] }
       const protos = [getProto(got) === ObjectProto, getProto(got.arr) === ArrayProto, getProto(got.arr[1][1]) === ObjectProto]
       return { got, failure, lossy, protos, completion: [{ a: [1, 'b'] }, null, 0.5] }`,
      tools(
        {
          echo: async (a) => {
            received = a
            return resolution
          },
          fail: async () => Promise.reject(new Error('typed still')),
        },
        TOOL_ERROR,
      ),
    )
    expect(r).toEqual({
      logs: [],
      value: {
        got: resolution,
        failure: [true, true, 'ToolCallError', 'fail', 'typed still'],
        lossy: [true, ARGS_NOT_LOSSLESS],
        protos: [true, true, true],
        completion: [{ a: [1, 'b'] }, null, 0.5],
      },
    })
    expect(received).toEqual(sent)
  })
})

describe('many calls and late answers', () => {
  test('5,000 calls via Promise.all are all in flight at once, in call order, and all resolve', async () => {
    const N = 5000
    const order: unknown[] = []
    const release: Array<() => void> = []
    let pending = 0
    let pendingWhenReleased = -1
    let fallback: ReturnType<typeof setTimeout> | undefined
    const releaseAll = () => {
      clearTimeout(fallback)
      if (pendingWhenReleased !== -1) return
      pendingWhenReleased = pending
      for (const r of release.splice(0)) r()
    }
    const f: CodeBindingFunction = (a) =>
      new Promise((resolve) => {
        order.push(a)
        pending++
        release.push(() => {
          pending--
          resolve((a as number) * 2)
        })
        // A fallback so a broken implementation fails the assertions instead of hanging.
        if (fallback === undefined) fallback = setTimeout(releaseAll, 15_000)
        if (pending === N) releaseAll()
      })
    const r = await run(
      `const ps: Promise<any>[] = []
       for (let i = 0; i < ${N}; i++) ps.push(tools.f(i))
       const rs = await Promise.all(ps)
       return { n: rs.length, exact: rs.every((r, i) => r === 2 * i) }`,
      tools({ f }),
    )
    expect(pendingWhenReleased).toBe(N)
    expect(r).toEqual({ logs: [], value: { n: N, exact: true } })
    expect(order).toEqual(Array.from({ length: N }, (_, i) => i))
  })

  test('a run calling in a tight loop does not keep the event loop from turning', async () => {
    // Answers hand the next call over directly while a run keeps calling; such a chain must
    // still let the host's timers and I/O in every millisecond or so.
    let calls = 0
    let callsWhenTimerFired = -1
    setTimeout(() => {
      callsWhenTimerFired = calls
    }, 1)
    const r = await run(
      'let n = 0; for (let i = 0; i < 20000; i++) n += await tools.echo(1); return n',
      tools({
        echo: async (x) => {
          calls++
          return x
        },
      }),
    )
    expect(r).toEqual({ logs: [], value: 20000 })
    expect(callsWhenTimerFired).toBeGreaterThanOrEqual(0)
    expect(callsWhenTimerFired).toBeLessThan(20000)
  })

  test('a host answer arriving after the run settled is dropped', async () => {
    const late: Array<{ resolve: (v: any) => void; reject: (e: unknown) => void }> = []
    let slowCalls = 0
    const slow: CodeBindingFunction = () =>
      new Promise((resolve, reject) => {
        slowCalls++
        late.push({ resolve, reject })
      })
    const r = await run(
      `tools.slow(1)
       tools.slow(2).catch(() => {})
       tools.slow(3)
       await tools.fast(null)
       return 'done before the slow calls'`,
      tools({ slow, fast: async () => 'fast' }, TOOL_ERROR),
    )
    expect(r).toEqual({ logs: [], value: 'done before the slow calls' })
    expect(slowCalls).toBe(3)
    late[0].resolve({ late: true })
    late[1].reject(new Error('late rejection'))
    late[2].resolve(() => 'not even JSON')
    await sleep(50)
    const next = await run('return await tools.fast(null)', tools({ fast: async () => 'still works' }))
    expect(next).toEqual({ logs: [], value: 'still works' })
  })
})

describe('answers settled together', () => {
  const cycle: any = { a: 1 }
  cycle.self = cycle
  let deep: any = 'leaf'
  for (let i = 0; i < 10_000; i++) deep = i % 2 ? [deep] : { k: deep }
  // Each call's answer, by index: values, refusals and rejections mixed.
  const answers: Array<() => unknown> = [
    () => 0,
    () => ({ a: [1, 'two', null] }),
    () => {
      throw new Error('first rejection')
    },
    () => () => 1,
    () => cycle,
    () => deep,
    () => {
      throw new Error('second rejection')
    },
    () => ({
      get x() {
        return 1
      },
    }),
    () => 'last',
  ]
  /** Answers every call at once, once all have arrived: one batch of answers. */
  const at = (): CodeBindingFunction => {
    const waiting: Array<() => void> = []
    return (i) =>
      new Promise((resolve, reject) => {
        waiting.push(() => {
          try {
            resolve(answers[i as number]() as any)
          } catch (e) {
            reject(e)
          }
        })
        if (waiting.length === answers.length) for (const w of waiting.splice(0)) w()
      })
  }
  const program = `
    const rs = await Promise.allSettled(Array.from({ length: ${answers.length} }, (_, i) => tools.at(i)))
    return rs.map((r) => {
      if (r.status === 'rejected') return 'rejected: ' + r.reason.message
      let v = r.value, d = 0
      while (typeof v === 'object' && v !== null && ('k' in v || Array.isArray(v) && v.length === 1)) { v = Array.isArray(v) ? v[0] : v.k; d++ }
      return v === 'leaf' ? 'depth ' + d : r.value
    })`
  const expected = [
    0,
    { a: [1, 'two', null] },
    'rejected: first rejection',
    `rejected: ${RESOLUTION_NOT_LOSSLESS}`,
    `rejected: ${RESOLUTION_NOT_LOSSLESS}`,
    'depth 10000',
    'rejected: second rejection',
    `rejected: ${RESOLUTION_NOT_LOSSLESS}`,
    'last',
  ]

  test('each answer is refused, rejected or written on its own, in call order', async () => {
    const r = await run(program, tools({ at: at() }))
    expect(r).toEqual({ logs: [], value: expected })
  })

  test('the same with a toJSON on the host prototypes, which is never called', async () => {
    const proto = Object.prototype as { toJSON?: () => string }
    const arrayProto = Array.prototype as { toJSON?: () => string }
    proto.toJSON = () => 'hijacked'
    arrayProto.toJSON = () => 'hijacked'
    try {
      const r = await run(program, tools({ at: at() }))
      expect(r).toEqual({ logs: [], value: expected })
    } finally {
      delete proto.toJSON
      delete arrayProto.toJSON
    }
  })

  test('a host toJSON getter that throws refuses every value, and the rejections keep their places', async () => {
    Object.defineProperty(Object.prototype, 'toJSON', {
      get() {
        throw new Error('toJSON getter')
      },
      configurable: true,
    })
    let r
    try {
      r = await run(program, tools({ at: at() }))
    } finally {
      delete (Object.prototype as { toJSON?: unknown }).toJSON
    }
    expect(r).toEqual({
      logs: [],
      value: expected.map((e) => (typeof e === 'string' && e.startsWith('rejected: ') ? e : `rejected: ${RESOLUTION_NOT_LOSSLESS}`)),
    })
  })
})

describe('several namespaces', () => {
  test('namespaces coexist, route to their own functions and each gets its own error class', async () => {
    const r = await run(
      `const grab = (p: Promise<any>) => p.then(() => 'resolved', (e: any) => e)
       const t = await grab(tools.fail(1)), d = await grab(db.fail(2)), p = await grab(plain.fail(3))
       return {
         values: [await tools.get('a'), await db.get('b'), await plain.get('c')],
         classes: ToolCallError !== DbError,
         tools: [t instanceof ToolCallError, t instanceof DbError, t.name, t.toolName, t.message],
         db: [d instanceof DbError, d instanceof ToolCallError, d instanceof Error, d.name, d.query, d.message],
         plain: [p instanceof Error, p instanceof ToolCallError, p instanceof DbError, p.name, p.message],
       }`,
      tools({ get: async (a) => ['tools', a as string], fail: async () => Promise.reject(new Error('tools failed')) }, TOOL_ERROR),
      {
        global: 'db',
        functions: { get: async (a) => ['db', a as string], fail: () => Promise.reject('db failed') },
        errorClass: { name: 'DbError', memberNameProperty: 'query' },
      },
      { global: 'plain', functions: { get: async (a) => ['plain', a as string], fail: async () => { throw new Error('plain failed') } } },
    )
    expect(r).toEqual({
      logs: [],
      value: {
        values: [['tools', 'a'], ['db', 'b'], ['plain', 'c']],
        classes: true,
        tools: [true, false, 'ToolCallError', 'fail', 'tools failed'],
        db: [true, false, true, 'DbError', 'fail', 'db failed'],
        plain: [true, false, false, 'Error', 'plain failed'],
      },
    })
  })
})

describe('resolutions are read without running host getters or toJSON', () => {
  test('a getter is refused without being called; a polluted host toJSON changes nothing', async () => {
    let calls = 0
    const withGetter = {
      get x() {
        calls++
        return 1
      },
    }
    const r1 = await run(settle('tools.get({})'), tools({ get: async () => withGetter }))
    expect(r1.value).toMatchObject({ isError: true, message: RESOLUTION_NOT_LOSSLESS })
    expect(calls).toBe(0)
    const proto = Object.prototype as { toJSON?: () => string }
    proto.toJSON = () => 'hijacked'
    try {
      const r2 = await run('return await tools.get({})', tools({ get: async () => ({ a: [1, { b: 'c' }], d: null }) }))
      expect(r2).toEqual({ logs: [], value: { a: [1, { b: 'c' }], d: null } })
    } finally {
      delete proto.toJSON
    }
  })
})

describe('long array answers', () => {
  // 20,000 elements, most of them flat records (checked where they are read, without a frame
  // of the walk or a cycle check of their own), some nested, one object reached many times.
  const N = 20_000
  const shared = { shared: ['reached', 'often'] }
  const rows = () =>
    Array.from({ length: N }, (_, i) =>
      i % 1000 === 0
        ? shared
        : i % 7 === 0
          ? [i, -i / 8, 'ß€😀\u2028', null, { deep: [[{ at: i }]] }]
          : i % 3 === 0
            ? `s${i}\ud800\udfff\ud800 "quoted" \\`
            : { id: i, name: 'item' + i, even: i % 2 === 0, nested: { tags: ['t' + (i % 5)] } },
    )

  test('every element arrives, in order, exactly as JSON writes it; one object reached many times is not a cycle', async () => {
    const value = rows()
    const r = await run(
      `const v: any = await tools.rows(null)
       return { json: JSON.stringify(v), array: Array.isArray(v), proto: Object.getPrototypeOf(v) === Array.prototype, length: v.length, last: v[v.length - 1] }`,
      tools({ rows: async () => value }),
    )
    expect(r).toEqual({
      logs: [],
      value: { json: JSON.stringify(value), array: true, proto: true, length: N, last: JSON.parse(JSON.stringify(value[N - 1])) },
    })
  })

  test('a program that replaced Array.prototype members and index accessors gets the same array', async () => {
    const value = rows()
    const r = await run(
      `Object.defineProperty(Array.prototype, '5000', { get() { throw new Error('proto getter ran') }, set() { throw new Error('proto setter ran') }, configurable: true })
       Array.prototype.push = () => { throw new Error('push ran') }
       Array.prototype.concat = () => { throw new Error('concat ran') }
       ;(Array as any).prototype[Symbol.iterator] = function* () { yield 'hijacked' }
       const v: any = await tools.rows(null)
       delete (Array.prototype as any)['5000']
       return { json: JSON.stringify(v), length: v.length }`,
      tools({ rows: async () => value }),
    )
    expect(r).toEqual({ logs: [], value: { json: JSON.stringify(value), length: N } })
  })

  let ran = 0
  const refusals: [string, (rows: unknown[]) => void][] = [
    ['a getter in the last element', (v) => (v[N - 1] = { id: 1, get x() { ran++; return 1 } })],
    ['a getter in a flat record of a nested array', (v) => (v[N - 5] = [[{ a: 1, get b() { ran++; return 2 } }]])],
    ['undefined in a middle element', (v) => (v[N / 2] = undefined)],
    ['a cycle back to the array from a late element', (v) => (v[N - 3] = { k: [v] })],
    ['a cycle within one late element', (v) => {
      const o: any = { a: 1 }
      o.self = { o }
      v[N - 100] = o
    }],
    ['a Proxy element', (v) => (v[5000] = new Proxy({}, { ownKeys() { ran++; return [] }, getPrototypeOf() { ran++; return Object.prototype } }))],
    ['a hole near the end', (v) => delete v[N - 2]],
    ['an extra property on the array', (v) => ((v as any).extra = 1)],
    ['a Date among the first elements', (v) => (v[10] = new Date(0))],
  ]
  test.each(refusals)('%s rejects the call, and the next long answer crosses whole', async (_, spoil) => {
    ran = 0
    const bad = rows()
    spoil(bad)
    const good = rows()
    const answers = [bad, good]
    const r = await run(
      `let refused = ''
       try { await tools.next(null) } catch (e: any) { refused = e.message }
       const v: any = await tools.next(null)
       return { refused, json: JSON.stringify(v) }`,
      tools({ next: async () => answers.shift() as any }),
    )
    expect(r).toEqual({ logs: [], value: { refused: RESOLUTION_NOT_LOSSLESS, json: JSON.stringify(good) } })
    expect(ran).toBe(0)
  })

  test('a run that does not wait for its long answer settles; a Proxy of a long array is refused without a trap', async () => {
    let traps = 0
    const proxied = new Proxy(rows(), {
      // The host's own promise reads `then` when its async function returns the Proxy.
      get(t, k) {
        if (k !== 'then') traps++
        return Reflect.get(t, k)
      },
      ownKeys(t) {
        traps++
        return Reflect.ownKeys(t)
      },
    })
    const r1 = await run(`tools.rows(null).catch(() => {}); return 'done'`, tools({ rows: async () => rows() }))
    expect(r1).toEqual({ logs: [], value: 'done' })
    const r2 = await run(settle('tools.rows(null)'), tools({ rows: async () => proxied }, TOOL_ERROR))
    expect(r2).toEqual({ logs: [], value: typed('rows', RESOLUTION_NOT_LOSSLESS) })
    expect(traps).toBe(0)
  })

  test('a long string answer with lone surrogates crosses exactly', async () => {
    const text = 'a\ud800b\udfffc😀'.repeat(10_000)
    const r = await run(`const s: string = await tools.text(null); return [s.charCodeAt(1), s.charCodeAt(3), s]`, tools({ text: async () => text }))
    expect(r).toEqual({ logs: [], value: [0xd800, 0xdfff, text] })
  })
})
