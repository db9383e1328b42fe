import { describe, expect, test } from 'vitest'
import { createRequire } from 'node:module'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const root = join(__dirname, '..')
const require = createRequire(import.meta.url)
// The runtime names, then the cordis plugin's (the package entry is the plugin object).
const NAMES = ['CodeRuntime', 'CodeSession', 'Config', 'PORTABLE_RESERVED_WORDS', 'RESERVED_BINDING_GLOBALS', 'RESERVED_ERROR_MEMBERS', 'apply', 'name', 'provide']

describe('package entry', () => {
  test('require() exposes exactly the runtime names and the cordis plugin members', () => {
    const api = require('../index.js')
    expect(Object.keys(api).sort()).toEqual(NAMES)
  })

  test('import works from ESM, with named exports', () => {
    const script = `
      import { CodeRuntime, RESERVED_BINDING_GLOBALS } from ${JSON.stringify(join(root, 'index.js'))}
      import pkg from ${JSON.stringify(join(root, 'index.js'))}
      const rt = new CodeRuntime()
      const r = await rt.run({ program: 'return 1 + 1', bindings: [] })
      await rt.dispose()
      console.log(JSON.stringify([r, RESERVED_BINDING_GLOBALS.has('console'), typeof pkg.CodeRuntime]))
    `
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(out.stderr).toBe('')
    expect(JSON.parse(out.stdout)).toEqual([{ logs: [], value: 2 }, true, 'function'])
  })

  test('the reserved sets are read-only and hold the contract names', () => {
    const api = require('../index.js')
    expect([...api.RESERVED_BINDING_GLOBALS]).toEqual(['console', '__dsh_main__', '__builtins__', '__name__', '__debug__'])
    expect([...api.RESERVED_ERROR_MEMBERS]).toEqual(['name', 'message', 'stack', 'args', 'with_traceback', 'add_note'])
    for (const w of ['await', 'eval', 'arguments', 'None', 'lambda', 'match', 'type', '_', 'yield', 'let']) {
      expect(api.PORTABLE_RESERVED_WORDS.has(w)).toBe(true)
    }
    expect(api.PORTABLE_RESERVED_WORDS.size).toBe(71)
    expect(() => api.RESERVED_BINDING_GLOBALS.add('x')).toThrow(TypeError)
    expect(() => api.PORTABLE_RESERVED_WORDS.delete('await')).toThrow(TypeError)
    expect(() => api.RESERVED_ERROR_MEMBERS.clear()).toThrow(TypeError)
  })

  test('an idle runtime does not keep Node alive', () => {
    const script = `
      const { CodeRuntime } = require(${JSON.stringify(join(root, 'index.js'))})
      const rt = new CodeRuntime()
      rt.run({ program: 'return 5', bindings: [] }).then((r) => console.log(JSON.stringify(r)))
    `
    const started = Date.now()
    const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20000 })
    expect(out.stdout.trim()).toBe('{"logs":[],"value":5}')
    expect(out.status).toBe(0)
    expect(Date.now() - started).toBeLessThan(10000)
  })
})
