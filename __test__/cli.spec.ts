import { describe, expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
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

  test('--help and -h print the usage and the exit codes, --version and -v the version; both exit 0', () => {
    for (const flag of ['--help', '-h']) {
      for (const args of [[flag], ['run', flag], ['run', 'x.ts', flag]]) {
        const out = run(...args)
        expect(out.status).toBe(0)
        expect(out.stdout).toMatch(/^usage: code-runtime-quickjs run <program\.ts>/)
        expect(out.stdout).toContain('Exit codes: 0 the program returned, 1 it failed')
        expect(out.stderr).toBe('')
      }
    }
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version
    for (const flag of ['--version', '-v']) expect(run(flag)).toMatchObject({ status: 0, stdout: `${version}\n`, stderr: '' })
  })

  test('every usage error is one line naming the problem, then the usage line, exit 2', () => {
    const cases: Array<[string[], string]> = [
      [[], 'missing command'],
      [['walk'], 'unknown command "walk"'],
      [['run'], 'missing <program.ts>'],
      [['run', 'x.ts', '--timeout', 'soon'], '--timeout needs a positive number of milliseconds, at most 2147483647'],
      [['run', 'x.ts', '--timeout', '-5'], '--timeout needs a positive number of milliseconds, at most 2147483647'],
      [['run', 'x.ts', '--nope'], 'unknown option --nope'],
      [['run', 'x.ts', '--bindings'], '--bindings needs a module path'],
      [['run', 'x.ts', 'y.ts'], 'unexpected argument "y.ts"'],
    ]
    for (const [args, message] of cases) {
      const out = run(...args)
      expect(out.status, args.join(' ')).toBe(2)
      expect(out.stderr).toBe(`code-runtime-quickjs: ${message}\nusage: code-runtime-quickjs run <program.ts> [--bindings <module>] [--timeout <ms>] [--json]\n`)
      expect(out.stdout).toBe('')
    }
  })

  test('an unreadable program or bindings module is one line without a stack, exit 3', () => {
    const dir = mkdtempSync(join(tmpdir(), 'code-runtime-cli-'))
    writeFileSync(join(dir, 'ok.ts'), 'return 1')
    writeFileSync(join(dir, 'throws.mjs'), 'throw new Error("module broke\\nsecond line")')
    writeFileSync(join(dir, 'syntax.mjs'), 'export const = 1')
    writeFileSync(join(dir, 'bad.mjs'), 'export const bindings = [{ global: "console", functions: {} }]')
    const cases: Array<[string[], RegExp]> = [
      [['run', join(dir, 'missing.ts')], /^code-runtime-quickjs: cannot read program .*missing\.ts: no such file\n$/],
      [['run', dir], /^code-runtime-quickjs: cannot read program .*: is a directory\n$/],
      [['run', join(dir, 'ok.ts'), '--bindings', join(dir, 'missing.mjs')], /^code-runtime-quickjs: cannot load bindings .*missing\.mjs: no such file\n$/],
      [['run', join(dir, 'ok.ts'), '--bindings', join(dir, 'throws.mjs')], /^code-runtime-quickjs: cannot load bindings .*throws\.mjs: module broke\n$/],
      [['run', join(dir, 'ok.ts'), '--bindings', join(dir, 'syntax.mjs')], /^code-runtime-quickjs: cannot load bindings .*syntax\.mjs: .+\n$/],
      [['run', join(dir, 'ok.ts'), '--bindings', join(dir, 'bad.mjs')], /^code-runtime-quickjs: cannot run: .*console.*\n$/],
    ]
    for (const [args, stderr] of cases) {
      const out = run(...args)
      expect(out.status, args.join(' ')).toBe(3)
      expect(out.stderr).toMatch(stderr)
      expect(out.stderr).not.toMatch(/\n\s+at /)
      expect(out.stdout).toBe('')
    }
  })

  test('a program that fails exits 1 with its error; one that returns exits 0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'code-runtime-cli-'))
    writeFileSync(join(dir, 'throws.ts'), 'throw new TypeError("bad input")')
    writeFileSync(join(dir, 'syntax.ts'), 'return (')
    writeFileSync(join(dir, 'ok.ts'), 'console.log("hi"); return { n: 1 }')
    const thrown = run('run', join(dir, 'throws.ts'))
    expect(thrown.status).toBe(1)
    expect(thrown.stdout).toContain('[error] exception: TypeError: bad input')
    expect(run('run', join(dir, 'syntax.ts'), '--json').status).toBe(1)
    const ok = run('run', join(dir, 'ok.ts'), '--json')
    expect(ok).toMatchObject({ status: 0, stderr: '' })
    expect(JSON.parse(ok.stdout)).toEqual({ logs: ['hi'], value: { n: 1 } })
  })

  test('a runtime that cannot load is one line, exit 4, and --help still works', () => {
    const env = { ...process.env, NAPI_RS_NATIVE_LIBRARY_PATH: join(tmpdir(), 'no-such-binary.node') }
    const dir = mkdtempSync(join(tmpdir(), 'code-runtime-cli-'))
    writeFileSync(join(dir, 'ok.ts'), 'return 1')
    const out = spawnSync(process.execPath, [cli, 'run', join(dir, 'ok.ts')], { cwd: root, encoding: 'utf8', timeout: 30000, env })
    expect(out.status).toBe(4)
    expect(out.stderr).toMatch(/^code-runtime-quickjs: no native binary loaded for this platform .*\n$/)
    expect(spawnSync(process.execPath, [cli, '--help'], { cwd: root, encoding: 'utf8', timeout: 30000, env }).status).toBe(0)
  })
})
