import { afterAll, describe, expect, test } from 'vitest'
import { createRequire } from 'node:module'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { createCodeTool } from '@cloudflare/codemode/ai'
import type { Executor as PackageExecutor } from '@cloudflare/codemode'
import { tool } from 'ai'
import { z } from 'zod'
import type * as Codemode from '../codemode'
import { CodeRuntime } from './helpers'

// `code-runtime-quickjs/codemode` against the real `@cloudflare/codemode` (0.5.6): its
// `createCodeTool` (from `/ai`, with AI SDK tools and zod schemas) drives the executor exactly
// as in an agent; the rest calls `execute()` directly. (`cloudflare:workers`, which the package
// imports but `createCodeTool` never uses, is stubbed in vitest.config.ts.)

const require = createRequire(import.meta.url)
/** The subpath export, loaded the way a CommonJS user loads it. */
const { QuickJSExecutor }: typeof Codemode = require('code-runtime-quickjs/codemode')

const executor = new QuickJSExecutor({ runtime: { threads: 2 }, timeoutMs: 20_000 })
afterAll(() => executor.dispose())

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const TOOL_OPTIONS = { toolCallId: 'call-1', messages: [] }

/** What the model sees of a tool call: the AI SDK tool's execute, as the agent loop calls it. */
async function callTool(codeTool: ReturnType<typeof createCodeTool>, code: string) {
  return (await codeTool.execute!({ code }, TOOL_OPTIONS)) as { result: unknown; logs?: string[] }
}

/** Resolves when `count` calls have started; a call that waits on it proves the calls overlap. */
function barrier(count: number, timeoutMs = 5_000) {
  let started = 0
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return {
    async arrive() {
      if (++started === count) open()
      await Promise.race([opened, sleep(timeoutMs).then(() => Promise.reject(new Error(`only ${started} of ${count} calls started`)))])
    },
  }
}

describe('createCodeTool (from @cloudflare/codemode/ai) with QuickJSExecutor', () => {
  const weather = tool({
    description: 'Current weather of a city',
    inputSchema: z.object({ city: z.string().describe('City name') }),
    execute: async ({ city }) => ({ city, tempC: city.length * 3 }),
  })

  test('the model-facing tool runs code that calls AI SDK tools, and returns result and logs', async () => {
    const codeTool = createCodeTool({ tools: { getWeather: weather }, executor })
    expect(codeTool.description).toContain('declare const codemode')
    expect(codeTool.description).toContain('getWeather: (input: GetWeatherInput) => Promise<GetWeatherOutput>')
    const out = await callTool(
      codeTool,
      `async () => {
        const cities = ['Oslo', 'Lisbon']
        const reports = await Promise.all(cities.map((city) => codemode.getWeather({ city })))
        console.log('fetched', reports.length)
        return reports.reduce((hottest, r) => (r.tempC > hottest.tempC ? r : hottest))
      }`,
    )
    expect(out).toEqual({ result: { city: 'Lisbon', tempC: 18 }, logs: ['fetched 2'] })
  })

  test('two providers called in parallel: both calls are in flight before either resolves', async () => {
    const overlap = barrier(2)
    const events: string[] = []
    const traced = <T>(name: string, value: T) => async () => {
      events.push(`start ${name}`)
      await overlap.arrive()
      events.push(`end ${name}`)
      return value
    }
    const codeTool = createCodeTool({
      tools: [
        { name: 'github', tools: { listIssues: { description: 'Open issues', inputSchema: z.object({ repo: z.string() }), execute: traced('github', [{ id: 1 }, { id: 2 }]) } } },
        { name: 'db', tools: { countUsers: { description: 'User count', inputSchema: z.object({}), execute: traced('db', 41) } } },
      ],
      executor,
    })
    expect(codeTool.description).toContain('declare const github')
    expect(codeTool.description).toContain('declare const db')
    const out = await callTool(
      codeTool,
      `async () => {
        const [issues, users] = await Promise.all([github.listIssues({ repo: 'a/b' }), db.countUsers({})])
        return { issues: issues.length, users: users + 1 }
      }`,
    )
    expect(out).toEqual({ result: { issues: 2, users: 42 } })
    expect(events.slice(0, 2).sort()).toEqual(['start db', 'start github'])
    expect(events.slice(2).sort()).toEqual(['end db', 'end github'])
  })

  test('code that runs past timeoutMs fails the tool call with a timeout, busy or waiting', async () => {
    const quick = new QuickJSExecutor({ runtime: { threads: 1 }, timeoutMs: 300 })
    try {
      const never = { description: 'Never answers', inputSchema: z.object({}), execute: () => new Promise<never>(() => {}) }
      const codeTool = createCodeTool({ tools: { never }, executor: quick })
      const started = performance.now()
      await expect(callTool(codeTool, 'async () => { console.log("spinning"); for (;;) {} }')).rejects.toThrow(
        'Code execution failed: Execution timed out after 300ms\n\nConsole output:\nspinning',
      )
      await expect(callTool(codeTool, 'async () => await codemode.never({})')).rejects.toThrow('Code execution failed: Execution timed out after 300ms')
      expect(performance.now() - started).toBeLessThan(5_000)
    } finally {
      await quick.dispose()
    }
  })

  test('a thrown error fails the tool call with its message and the logs printed before it', async () => {
    const codeTool = createCodeTool({ tools: { getWeather: weather }, executor })
    await expect(callTool(codeTool, 'async () => { console.log("about to fail"); throw new RangeError("no such city") }')).rejects.toThrow(
      'Code execution failed: no such city\n\nConsole output:\nabout to fail',
    )
  })

  test('a tool rejection (here a schema validation failure) rejects the call inside the code, where it can be caught', async () => {
    const codeTool = createCodeTool({ tools: { getWeather: weather }, executor })
    const out = await callTool(
      codeTool,
      `async () => {
        try { await codemode.getWeather({ city: 42 }) } catch (e) { return { caught: e instanceof Error, mentionsCity: /city/.test(e.message) } }
      }`,
    )
    expect(out).toEqual({ result: { caught: true, mentionsCity: true } })
  })

  test('console output becomes logs: one entry per call, rendered as Node does, warn/error tagged', async () => {
    const codeTool = createCodeTool({ tools: { getWeather: weather }, executor })
    const out = await callTool(
      codeTool,
      `async () => {
        console.log('report', { city: 'Oslo', temps: [1, 2] })
        console.warn('%d cities missing', 2)
        console.error(new Error('partial').message)
        console.info('done')
      }`,
    )
    expect(out).toEqual({ result: undefined, logs: ["report { city: 'Oslo', temps: [ 1, 2 ] }", '[warn] 2 cities missing', '[error] partial', 'done'] })
  })
})

describe('execute() with resolved providers', () => {
  test('positionalArgs providers receive the argument list as positional arguments', async () => {
    const calls: unknown[][] = []
    const fns = {
      readFile: async (...args: unknown[]) => {
        calls.push(args)
        return `contents of ${args[0]}`
      },
    }
    const r = await executor.execute(
      `async () => [await state.readFile('/a.txt', 'utf8'), await state.readFile('/b.txt'), await state.readFile()]`,
      [{ name: 'state', fns, positionalArgs: true }],
    )
    expect(r).toEqual({ result: ['contents of /a.txt', 'contents of /b.txt', 'contents of undefined'], logs: [] })
    expect(calls).toEqual([['/a.txt', 'utf8'], ['/b.txt'], []])
  })

  test('without the flag arguments are spread too (0.5); positionalArgs: false passes the first argument or {} (0.3)', async () => {
    const echo = async (...args: unknown[]) => args
    const code = `async () => [await ns.f({ q: 1 }), await ns.f('a', 2), await ns.f()]`
    expect(await executor.execute(code, [{ name: 'ns', fns: { f: echo } }])).toEqual({ result: [[{ q: 1 }], ['a', 2], []], logs: [] })
    expect(await executor.execute(code, [{ name: 'ns', fns: { f: echo }, positionalArgs: false }])).toEqual({ result: [[{ q: 1 }], ['a'], [{}]], logs: [] })
  })

  test('a plain record of functions is the codemode namespace; tool names are sanitized as the package does', async () => {
    const r = await executor.execute('async () => [await codemode.get_weather({ city: "Oslo" }), await codemode.delete_("x")]', {
      'get-weather': async (args) => args,
      delete: async (id) => `deleted ${id}`,
    })
    expect(r).toEqual({ result: [{ city: 'Oslo' }, 'deleted x'], logs: [] })
  })

  test('an unknown tool rejects inside the code with the package message', async () => {
    const r = await executor.execute('async () => await codemode.nope()', [{ name: 'codemode', fns: {} }])
    expect(r).toEqual({ result: undefined, error: 'Tool "nope" not found', logs: [] })
  })

  test('a provider prelude runs in the sandbox first, and its members take precedence', async () => {
    const r = await executor.execute('async () => [codemode.step("a"), await codemode.search("q")]', [
      { name: 'codemode', fns: { search: async (q) => `found ${q}`, step: async () => 'host step' }, prelude: 'codemode.step = (name) => "local " + name' },
    ])
    expect(r).toEqual({ result: ['local a', 'found q'], logs: [] })
  })

  test('values cross as JSON with the package binary codec; the result is what JSON carries', async () => {
    let received: unknown
    const fns = {
      inspect: async (value: unknown) => {
        received = value
        return { when: new Date(0), missing: undefined, bytes: Buffer.from('hi') }
      },
    }
    const r = await executor.execute(
      `async () => {
        const back = await codemode.inspect({ bytes: new Uint8Array([1, 2, 3]), skip: undefined, list: [undefined] })
        return { back, isBytes: back.bytes instanceof Uint8Array, text: new TextDecoder().decode(back.bytes), out: new Uint8Array([9]), at: new Date(1000) }
      }`,
      [{ name: 'codemode', fns }],
    )
    expect(received).toEqual({ bytes: new Uint8Array([1, 2, 3]), list: [null] })
    expect(r.error).toBeUndefined()
    expect(r.result).toEqual({
      back: { when: '1970-01-01T00:00:00.000Z', bytes: new Uint8Array([104, 105]) },
      isBytes: true,
      text: 'hi',
      out: new Uint8Array([9]),
      at: '1970-01-01T00:00:01.000Z',
    })
  })

  test('TypeScript in the code runs (types stripped); a syntax error reports the position in the code', async () => {
    expect(await executor.execute('async () => { const n: number = 2; return n as number }', [])).toEqual({ result: 2, logs: [] })
    const r = await executor.execute('async () => { return ( }', [])
    expect(r).toEqual({ result: undefined, error: expect.stringMatching(/^SyntaxError: .*\(1:\d+\)$/), logs: [] })
    expect(Number(/\(1:(\d+)\)/.exec(r.error!)![1])).toBeLessThanOrEqual('async () => { return ( }'.length + 1)
  })

  test('failures resolve as { result: undefined, error } and never reject', async () => {
    const cases: Array<[Parameters<Codemode.QuickJSExecutor['execute']>, string]> = [
      [['async () => { throw "plain string" }', []], 'plain string'],
      [['async () => 1n', []], 'the result could not be serialized: Do not know how to serialize a BigInt'],
      [['async () => 1', [{ name: 'not-an-identifier', fns: {} }]], 'Provider name "not-an-identifier" is not a valid JavaScript identifier'],
      [['async () => 1', [{ name: 'let', fns: {} }]], 'Provider name "let" is reserved'],
      [['async () => 1', [{ name: 'a', fns: {} }, { name: 'a', fns: {} }]], 'Duplicate provider name "a"'],
      [['async () => 1', [{ name: 'a', fns: { 'x-y': async () => 1, x_y: async () => 2 } }]], 'Tool names "x-y" and "x_y" both sanitize to "x_y" in provider "a"'],
      [['async () => 1', [], { connectors: [{ name: 'gh', binding: { callTool: async () => 1 } }] }], 'QuickJSExecutor does not support connectors (Workers RPC bindings); pass providers instead'],
      [['async () => await codemode.x()', [{ name: 'codemode', fns: { x: 5 as never } }]], 'Tool "x" is not a function'],
      [['async () => await new Promise(() => {})', []], 'Error: the program is waiting on a promise that nothing can settle (no timer, binding call or job is pending)'],
      [[42 as unknown as string, []], 'code must be a string (got 42)'],
    ]
    for (const [args, error] of cases) expect(await executor.execute(...args)).toMatchObject({ result: undefined, error })
  })
})

describe('dispose()', () => {
  test('an executor that made its runtime ends in-flight executions, then disposes the runtime', async () => {
    const own = new QuickJSExecutor({ runtime: { threads: 1 } })
    const pending = own.execute('async () => { console.log("waiting"); return await codemode.hang() }', { hang: () => new Promise(() => {}) })
    await sleep(50)
    await own[Symbol.asyncDispose]()
    expect(await pending).toEqual({ result: undefined, error: 'Execution aborted: executor disposed', logs: ['waiting'] })
    expect(await own.execute('async () => 1', [])).toEqual({ result: undefined, error: 'QuickJSExecutor is disposed' })
    await expect(own.runtime.run({ program: 'return 1', bindings: [] })).rejects.toThrow('after disposal')
    await own.dispose() // idempotent
  })

  test('an executor on a shared runtime ends only its own executions and leaves the runtime running', async () => {
    const shared = new CodeRuntime({ threads: 2 })
    try {
      const first = new QuickJSExecutor({ runtime: shared })
      const second = new QuickJSExecutor({ runtime: shared })
      expect(first.runtime).toBe(shared)
      const slow = async () => {
        await sleep(200)
        return 'slow done'
      }
      const a = first.execute('async () => await codemode.slow()', { slow })
      const b = second.execute('async () => await codemode.slow()', { slow })
      await sleep(20)
      await first.dispose()
      expect(await a).toEqual({ result: undefined, error: 'Execution aborted: executor disposed', logs: [] })
      expect(await b).toEqual({ result: 'slow done', logs: [] })
      expect(await shared.run({ program: 'return 1', bindings: [] })).toEqual({ logs: [], value: 1 })
      await second.dispose()
    } finally {
      await shared.dispose()
    }
  })

  test('disposing the runtime underneath aborts executions with its reason', async () => {
    const shared = new CodeRuntime({ threads: 1 })
    const onShared = new QuickJSExecutor({ runtime: shared })
    const pending = onShared.execute('async () => await new Promise(() => setTimeout(() => {}, 60_000))', [])
    await sleep(20)
    await shared.dispose()
    expect(await pending).toEqual({ result: undefined, error: 'Execution aborted: runtime disposed', logs: [] })
    expect(await onShared.execute('async () => 1', [])).toEqual({ result: undefined, error: expect.stringContaining('after disposal') })
  })
})

describe('constructor', () => {
  test('options are validated; a runtime config is validated by CodeRuntime', () => {
    expect(() => new QuickJSExecutor({ timeout: 5 } as never)).toThrow(new TypeError('QuickJSExecutor options has an unknown key "timeout"'))
    expect(() => new QuickJSExecutor({ timeoutMs: 0 })).toThrow(RangeError)
    expect(() => new QuickJSExecutor({ timeoutMs: '5' as never })).toThrow(TypeError)
    expect(() => new QuickJSExecutor({ runtime: { computeMs: -1 } })).toThrow(/computeMs/)
  })

  test('the subpath export loads from an ES module; an idle executor does not keep Node alive', () => {
    const script = `
      import { QuickJSExecutor } from 'code-runtime-quickjs/codemode'
      const executor = new QuickJSExecutor()
      executor.execute('async () => await codemode.add(2, 3)', { add: async (a, b) => a + b }).then((r) => console.log(JSON.stringify(r)))
    `
    const started = Date.now()
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: join(__dirname, '..'), encoding: 'utf8', timeout: 20_000 })
    expect(out.stderr).toBe('')
    expect(out.stdout.trim()).toBe('{"result":5,"logs":[]}')
    expect(out.status).toBe(0)
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  test('it is an Executor of the package (checked at compile time in __test__/types/codemode.mts)', () => {
    const asPackage: PackageExecutor = executor
    expect(typeof asPackage.execute).toBe('function')
    expect(Object.prototype.toString.call(executor)).toBe('[object QuickJSExecutor]')
  })
})

/**
 * `normalizeCode` of the installed `@cloudflare/codemode` (not exported from a Node entry:
 * found by name among its chunks), to compare ours with on JavaScript.
 */
async function packageNormalizeCode(): Promise<(code: string) => string> {
  const { readdirSync } = await import('node:fs')
  const dist = join(__dirname, '..', 'node_modules', '@cloudflare', 'codemode', 'dist')
  for (const file of readdirSync(dist).filter((f) => f.endsWith('.js'))) {
    const source = require('node:fs').readFileSync(join(dist, file), 'utf8') as string
    if (!/^function normalizeCode\(/m.test(source) || source.includes('cloudflare:workers')) continue
    const chunk = await import(join(dist, file))
    const found = Object.values(chunk).find((f) => typeof f === 'function' && f.name === 'normalizeCode')
    if (found) return found as (code: string) => string
  }
  throw new Error('normalizeCode not found in @cloudflare/codemode')
}

describe('the same answers as the package executors', () => {
  const nativeNormalize: (code: string) => string = require('../binding.js').normalizeCode

  test('execute() normalizes code as the package executors do: expressions, fences, statements', async () => {
    expect(await executor.execute('42', {})).toEqual({ result: 42, logs: [] })
    expect(await executor.execute('42', [])).toEqual({ result: 42, logs: [] })
    expect(await executor.execute('```js\n1 + 1\n```', [])).toEqual({ result: 2, logs: [] })
    expect(await executor.execute('```javascript\nconst a = 2\na * 3\n```\n', [])).toEqual({ result: 6, logs: [] })
    expect(await executor.execute('async () => 42', [])).toEqual({ result: 42, logs: [] })
    expect(await executor.execute('const r = await codemode.add(2, 3); r * 2', { add: async (a: unknown, b: unknown) => Number(a) + Number(b) })).toEqual({ result: 10, logs: [] })
    expect(await executor.execute('function main() { return "m" }', [])).toEqual({ result: 'm', logs: [] })
    expect(await executor.execute('export default async function () { return "d" }', [])).toEqual({ result: 'd', logs: [] })
    expect(await executor.execute('export default async () => "e"', [])).toEqual({ result: 'e', logs: [] })
    expect(await executor.execute('const hello = "hello"; `${hello} world`', [])).toEqual({ result: 'hello world', logs: [] })
    expect(await executor.execute('   ', [])).toEqual({ result: undefined, logs: [] })
  })

  test('normalization decides on JavaScript exactly as the package normalizeCode', async () => {
    const theirs = await packageNormalizeCode()
    const inputs = [
      '', '  \n\t ', 'async () => { return 1 }', 'async () => { return 1; };', '() => 42', '  () => 42  ', '(async () => 1)',
      'async (x) => x', '1 + 2', 'console.log("hello")', "await fetch('http://example.com')", 'const x = 1;',
      'const x = 1\nx', 'if (a) { b() }', 'return 5', 'const a = 1; return a', 'function f() { return 1 }',
      'function f() { return 1 }\nf()', 'export default function () { return 1 }', 'export default async () => 1',
      'export default class { }', 'export default function named() { return 2 }', 'export default 40 + 2',
      '```js\nasync () => 1\n```', '```ts\n() => 42\n```', '```\n() => 42\n```  ', '```typescript\n  1\n```',
      '```python\nprint(1)\n```', 'return ((', 'const t = `a ${`b`}`; t', '(1, 2)', 'for (;;) break', 'a; b; c',
      'class A {}', 'let x = await codemode.f(); x.y', 'throw new Error("x")', '/* comment */ 1', '1 // trailing',
    ]
    for (const input of inputs) expect(nativeNormalize(input), JSON.stringify(input)).toBe(theirs(input))
  })

  test('TypeScript reaches the executor as its JavaScript would, directly and through createCodeTool', async () => {
    const typed = 'async () => { const n: number = 42; return n }'
    expect(await executor.execute(typed, [])).toEqual({ result: 42, logs: [] })
    expect(await executor.execute('const n: number = 41\nn + 1', [])).toEqual({ result: 42, logs: [] })
    expect(await executor.execute('interface P { n: number }\nconst p: P = { n: 7 }\np.n', [])).toEqual({ result: 7, logs: [] })
    expect(await executor.execute('```ts\nconst s: string = "ts"\ns\n```', [])).toEqual({ result: 'ts', logs: [] })
    // createCodeTool normalizes first (acorn, JavaScript only): typed code arrives wrapped in a block.
    const theirs = await packageNormalizeCode()
    expect(theirs(typed)).toBe(`async () => {\n${typed}\n}`)
    expect(await executor.execute(theirs(typed), [])).toEqual({ result: 42, logs: [] })
    expect(await executor.execute(theirs('const n: number = 9\nn'), [])).toEqual({ result: 9, logs: [] })
    const codeTool = createCodeTool({ tools: {}, executor })
    expect(await callTool(codeTool, typed)).toMatchObject({ result: 42 })
    expect(await callTool(codeTool, 'async (): Promise<number> => { const xs: number[] = [1, 2]; return xs.length }')).toMatchObject({ result: 2 })
    // A wrap of JavaScript is the code's own meaning and stays: this block returns nothing.
    expect(await executor.execute('async () => {\nasync () => 1\n}', [])).toEqual({ result: undefined, logs: [] })
  })

  test('a syntax error points into the code as written, wrapped or not', async () => {
    const bare = await executor.execute('const a = 1\nconst = 2', [])
    expect(bare.error).toMatch(/^SyntaxError: .*\(2:\d+\)$/)
    const fenced = await executor.execute('```ts\nconst a = 1\nconst = 2\n```', [])
    expect(fenced.error).toMatch(/^SyntaxError: .*\(3:\d+\)$/)
  })

  test('the package reserved provider names are refused with its message', async () => {
    const names = ['__dispatchers', '__connectors', '__logs', '__stringifyForCodemode', '__parseForCodemode', '__CODEMODE_BINARY_TAG',
      '__bytesToBase64', '__base64ToBytes', '__encodeCodemodeValue', '__decodeCodemodeValue', 'WorkerEntrypoint', 'CodeExecutor',
      'Promise', 'setTimeout', 'Error', 'console'] // prettier-ignore
    for (const name of names) {
      expect(await executor.execute('async () => 42', [{ name, fns: {} }])).toEqual({ result: undefined, error: `Provider name "${name}" is reserved` })
    }
    // Reserved is checked before the identifier rule, then duplicates, as the package does.
    expect((await executor.execute('async () => 1', [{ name: 'ok', fns: {} }, { name: 'Promise', fns: {} }, { name: 'ok', fns: {} }])).error).toBe('Provider name "Promise" is reserved')
    expect((await executor.execute('async () => 1', [{ name: '1x', fns: {} }])).error).toBe('Provider name "1x" is not a valid JavaScript identifier')
  })
})
