import { describe, expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = join(__dirname, '..')
const cli = join(root, 'bin', 'code-runtime-quickjs.mjs')
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', timeout: 30000 })

describe('command line', () => {
  test('runs a program against a module of tools and prints JSON', () => {
    const out = run('run', 'examples/demo.ts', '--bindings', 'examples/tools.mjs', '--json')
    expect(out.status).toBe(0)
    const result = JSON.parse(out.stdout)
    expect(result.logs).toEqual(['orders: 3', "gold: [ 'b-2' ]", 'getOrder failed: no order "missing"'])
    expect(result.value.grandTotalCents).toBe(51347)
  })

  test('prints logs and the value for people', () => {
    const out = run('run', 'examples/demo.ts', '--bindings', 'examples/tools.mjs')
    expect(out.status).toBe(0)
    expect(out.stdout).toContain('[log] orders: 3')
    expect(out.stdout).toContain('[value] {')
  })

  test('--timeout bounds the run and a failure exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'code-runtime-cli-'))
    writeFileSync(join(dir, 'spin.ts'), 'for (;;) {}')
    const out = run('run', join(dir, 'spin.ts'), '--timeout', '200', '--json')
    expect(out.status).toBe(1)
    expect(JSON.parse(out.stdout).error).toEqual({ kind: 'timeout', message: 'wall-clock ceiling reached (200ms)' })
  })

  test('usage errors exit 2 with the usage line', () => {
    for (const args of [[], ['walk'], ['run'], ['run', 'x.ts', '--timeout', 'soon'], ['run', 'x.ts', '--nope']]) {
      const out = run(...args)
      expect(out.status).toBe(2)
      expect(out.stderr).toContain('usage: code-runtime-quickjs run <program.ts>')
    }
  })
})
