import { describe, expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

// The package as a cordis plugin, in a small app per cordis line (__test__/cordis/): the
// agent's fork (`@deepseek-ai/cordis` 4), npm's cordis 4 pre-release and npm's cordis 3.
// Each app loads the package by name as the agent's loader does, with the worker-thread
// backend's config keys, lets a consumer inject `codeRuntime`, reloads and unloads it.
const dir = join(__dirname, 'cordis')
function app(file: string, ...args: string[]) {
  const out = spawnSync(process.execPath, [join(dir, file), ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 })
  expect(out.status, out.stderr).toBe(0)
  const steps = new Map<string, unknown>()
  for (const line of out.stdout.split('\n').filter((l) => l.startsWith('{'))) {
    const { step, value } = JSON.parse(line)
    steps.set(step, value)
  }
  expect(steps.get('done')).toBe(true)
  return steps
}

const consumed = {
  language: 'typescript',
  isolation: 'quickjs',
  result: { logs: ['n 42'], value: 42 },
}
const abortedByReload = { logs: [], error: { kind: 'abort', message: 'runtime disposed' } }
// maxOutputBytes: 10 after the reload: the ledger cuts the message to fit beside [].
const tinyCap = { logs: [], error: { kind: 'output-limit', message: 'outer ' } }

describe.each([['@deepseek-ai/cordis'], ['cordis4']])('cordis 4 (%s)', (cordis) => {
  test('loads by name, provides codeRuntime with the backend config keys, reloads and unloads', () => {
    const steps = app('cordis4-app.mjs', cordis)
    const shape = { name: 'code-runtime-quickjs', provide: 'codeRuntime', apply: 'function' }
    expect(steps.get('code-runtime-quickjs: shape')).toEqual(shape)
    expect(steps.get('code-runtime-quickjs/cordis: shape')).toEqual(shape)
    expect(steps.get('consumer 1')).toEqual(consumed)
    expect(steps.get('consumer 2')).toEqual(consumed) // the consumer restarts on the new runtime
    expect(steps.get('reload ended the old runtime run')).toEqual(abortedByReload)
    expect(steps.get('reload made a new runtime')).toBe(true)
    expect(steps.get('new config applies')).toEqual(tinyCap)
    expect(steps.get('unloaded')).toBe(true)
    expect(steps.get('disposed rejects')).toBe('CodeRuntime.run() called after disposal')
    expect(steps.get('bad config')).toMatch(/sets both maxHeapMb \(32\) and maxOldGenerationSizeMb \(64\)/)
    expect(steps.get('unknown key')).toMatch(/code-runtime-quickjs plugin config has an unknown key "computeMS"/)
  })
})

describe('cordis 3 (cordis 3.18)', () => {
  test('loads by name, provides codeRuntime, reloads and unloads; methods work through its service Proxy', () => {
    const steps = app('cordis3-app.cjs')
    expect(steps.get('shape')).toEqual({ name: 'code-runtime-quickjs', provide: 'codeRuntime', apply: 'function' })
    expect(steps.get('consumer 1')).toEqual(consumed)
    expect(steps.get('consumer 2')).toEqual(consumed)
    expect(steps.get('reload ended the old runtime run')).toEqual(abortedByReload)
    expect(steps.get('reload made a new runtime')).toBe(true)
    expect(steps.get('new config applies')).toEqual(tinyCap)
    expect(steps.get('unloaded')).toBe(true)
    expect(steps.get('disposed rejects')).toBe('CodeRuntime.run() called after disposal')
    expect(steps.get('unknown key')).toBe('refused')
    expect(steps.get('tracked is a proxy')).toBe(true)
    expect(steps.get('through the proxy')).toEqual(consumed)
    expect(steps.get('metrics through the proxy')).toBe(1)
    expect(steps.get('session through the proxy')).toEqual({ logs: [], value: 2 })
    expect(steps.get('dispose through the proxy')).toBe('CodeRuntime.run() called after disposal')
  })
})

describe('the plugin config', () => {
  const { Config } = require('code-runtime-quickjs/cordis') as { Config: ((c?: unknown) => Record<string, number>) & { '~standard': { version: number; validate(v: unknown): unknown } } }
  test('defaults are the worker-thread backend defaults; its heap key is ours', () => {
    expect(Config(undefined)).toMatchObject({ computeMs: 60000, maxWallMs: 600000, maxOutputBytes: 67108864, maxHeapMb: 512 })
    expect(Config({ maxOldGenerationSizeMb: 64 }).maxHeapMb).toBe(64)
    expect(Config({ maxHeapMb: 32, threads: 2 })).toMatchObject({ maxHeapMb: 32, threads: 2 })
    expect(Config({ timeZone: 'europe/paris' }).timeZone).toBe('Europe/Paris')
    expect(Config(undefined).timeZone).toBe('UTC')
    expect(Config(Config({ maxOldGenerationSizeMb: 8 }))).toEqual(Config({ maxOldGenerationSizeMb: 8 }))
  })
  test('it is a Standard Schema too, and refuses what the runtime refuses, naming the field', () => {
    expect(Config['~standard'].version).toBe(1)
    expect(Config['~standard'].validate({ computeMs: 5 })).toMatchObject({ value: { computeMs: 5 } })
    // The worker-thread backend's checks and words.
    expect(Config['~standard'].validate({ computeMs: -1 })).toEqual({ issues: [{ message: 'code-runtime-quickjs: config.computeMs must be a positive number, got -1' }] })
    expect(() => Config({ maxOldGenerationSizeMb: '64' })).toThrow('code-runtime-quickjs: config.maxOldGenerationSizeMb must be a positive number, got 64')
    expect(() => Config({ maxHeapMb: Infinity })).toThrow('code-runtime-quickjs: config.maxHeapMb must be a positive number, got Infinity')
    expect(() => Config({ maxOutputBytes: 3 })).toThrow('code-runtime-quickjs: config.maxOutputBytes must be a safe integer of at least 4, got 3')
    expect(() => Config({ maxOutputBytes: 4.5 })).toThrow('code-runtime-quickjs: config.maxOutputBytes must be a safe integer of at least 4, got 4.5')
    expect(() => Config({ maxWallMs: 2_147_483_648 })).toThrow('code-runtime-quickjs: config.maxWallMs must be at most 2147483647 (Node clamps a longer setTimeout delay to 1ms), got 2147483648')
    expect(Config({ maxWallMs: 2_147_483_647 }).maxWallMs).toBe(2_147_483_647)
    expect(() => Config({ threads: 0 })).toThrow('code-runtime-quickjs plugin config.threads must be a positive integer, at most 1024 (got 0)')
    expect(() => Config([])).toThrow('code-runtime-quickjs plugin config must be an object (got an array)')
    expect(() => Config({ get computeMs() { return 1 } })).toThrow('must be a plain value, not an accessor')
  })
  test('no cordis dependency at install: cordis is neither a dependency nor a required peer', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'))
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const name of Object.keys(pkg[field] ?? {})) expect(name, field).not.toMatch(/cordis/)
    }
    const sources = ['index.js', 'cordis.js', 'lib/cordis.js'].map((f) => readFileSync(join(__dirname, '..', f), 'utf8'))
    for (const source of sources) expect(source).not.toMatch(/require\(['"][^'"]*cordis['"]\)|from ['"][^'"]*cordis['"]/)
  })
})
