// Checks the package as npm users get it. It checks the manifest (the seven platform
// packages pinned as `optionalDependencies`, repository, homepage, bugs, keywords), packs the
// main package as it stands and this platform's binary package, asserts what each tarball holds, installs both into a fresh project in the
// system temp directory (no registry, nothing resolvable from this checkout), and there:
// require()s and imports the package (and its `codemode` subpath, without @cloudflare/codemode
// installed), runs a program with a binding, runs the command line, and type-checks TypeScript
// that uses the exported types with `tsc --strict` (also under `lib: es2022` alone, without
// `@types/node`).
//
//   node scripts/verify-pack.mjs        (needs the built .node for this platform)
//
// Exits 0 and prints `verify-pack: ok …` when everything holds; set KEEP_VERIFY_PACK=1 to
// keep the temporary directory for inspection.
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const started = performance.now()
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const libc = process.platform === 'linux' ? (process.report.getReport().header.glibcVersionRuntime ? '-gnu' : '-musl') : ''
const platform = `${process.platform}-${process.arch}${libc}${process.platform === 'win32' ? '-msvc' : ''}`
const binaryName = `${pkg.napi.binaryName}.${platform}.node`
const platformDir = join(root, 'npm', platform)

/** Files the main tarball must hold, exactly (package.json, README and LICENSE npm adds itself). */
const MAIN_FILES = ['CHANGELOG.md', 'LICENSE', 'README.md', 'bin/code-runtime-quickjs.mjs', 'binding.js', 'codemode.d.ts', 'codemode.js', 'cordis.d.ts', 'cordis.js', 'index.d.ts', 'index.js', 'lib/cordis.js', 'lib/loader.js', 'lib/lossless.js', 'lib/runtime.js', 'lib/session.js', 'lib/validation.js', 'package.json']
const PLATFORM_FILES = ['README.md', binaryName, 'package.json']
/** The platform keys of `napi.targets`, in the napi CLI's naming (`npm/<key>/`). */
const TARGET_KEYS = {
  'x86_64-unknown-linux-gnu': 'linux-x64-gnu',
  'x86_64-unknown-linux-musl': 'linux-x64-musl',
  'aarch64-unknown-linux-gnu': 'linux-arm64-gnu',
  'aarch64-unknown-linux-musl': 'linux-arm64-musl',
  'x86_64-apple-darwin': 'darwin-x64',
  'aarch64-apple-darwin': 'darwin-arm64',
  'x86_64-pc-windows-msvc': 'win32-x64-msvc',
}

function fail(message) {
  throw new Error(message)
}

function check(condition, message) {
  if (!condition) fail(message)
}

/** Runs a command to completion; fails the check with its output when it exits non-zero. */
function run(cmd, args, cwd, env = {}) {
  const windowsShim = process.platform === 'win32' && cmd === 'npm'
  const out = spawnSync(windowsShim ? 'npm.cmd' : cmd, args, {
    cwd,
    encoding: 'utf8',
    shell: windowsShim, // Node refuses to spawn .cmd files without a shell
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...cleanEnv, ...env },
  })
  if (out.status !== 0) fail(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${out.status ?? out.signal}:\n${out.stdout}\n${out.stderr}`)
  return out.stdout
}

// Nothing from this checkout or the test runner may leak into the temporary project.
const cleanEnv = { ...process.env }
for (const key of Object.keys(cleanEnv)) {
  if (/^(NODE_OPTIONS|NODE_PATH|NAPI_RS_.*|VITEST.*|npm_.*)$/i.test(key)) delete cleanEnv[key]
}
cleanEnv.npm_config_audit = 'false'
cleanEnv.npm_config_fund = 'false'
cleanEnv.npm_config_update_notifier = 'false'

/** `npm pack` of a directory into `dest`; returns the tarball path and the files it holds. */
function pack(dir, dest) {
  const [info] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dest], dir))
  return { tarball: join(dest, info.filename), files: info.files.map((f) => f.path.split(sep).join('/')).sort() }
}

check(pkg.napi.targets.every((t) => TARGET_KEYS[t]), `napi.targets has a target this script does not know: ${pkg.napi.targets}`)
for (const key of Object.values(TARGET_KEYS)) {
  const manifest = JSON.parse(readFileSync(join(root, 'npm', key, 'package.json'), 'utf8'))
  check(manifest.name === `${pkg.name}-${key}` && manifest.version === pkg.version, `npm/${key}/package.json: name or version out of step`)
  check(manifest.main === `${pkg.napi.binaryName}.${key}.node`, `npm/${key}/package.json: main is ${manifest.main}`)
}
const expectedOptional = Object.fromEntries(Object.values(TARGET_KEYS).sort().map((key) => [`${pkg.name}-${key}`, pkg.version]))
check(
  JSON.stringify(Object.fromEntries(Object.entries(pkg.optionalDependencies ?? {}).sort())) === JSON.stringify(expectedOptional),
  `package.json optionalDependencies must pin the seven platform packages to ${pkg.version}: ${JSON.stringify(pkg.optionalDependencies)}`,
)
for (const field of ['repository', 'homepage', 'bugs', 'keywords', 'license', 'description', 'engines']) check(pkg[field], `package.json has no ${field}`)
check(pkg.files.length > 0 && !pkg.private, 'package.json is private or lists no files')
const builtBinary = join(root, binaryName)
check(existsSync(builtBinary), `${binaryName} is not built (run node scripts/ensure-built.mjs)`)

const temp = realpathSync(mkdtempSync(join(tmpdir(), 'code-runtime-verify-pack-')))
check(relative(root, temp).startsWith('..'), `the temporary directory ${temp} is inside the checkout`)
const app = join(temp, 'app')
mkdirSync(app)

try {
  // The platform package, as `napi artifacts` lays it out (the copied binary is git-ignored).
  const stagedBinary = join(platformDir, binaryName)
  copyFileSync(builtBinary, stagedBinary)
  let platformPack
  try {
    platformPack = pack(platformDir, temp)
  } finally {
    rmSync(stagedBinary, { force: true })
  }
  check(JSON.stringify(platformPack.files) === JSON.stringify(PLATFORM_FILES), `platform tarball holds ${platformPack.files}`)

  // The main package as it stands in the checkout: it pins every platform package.
  const mainPack = pack(root, temp)
  check(JSON.stringify(mainPack.files) === JSON.stringify(MAIN_FILES), `main tarball holds ${mainPack.files}`)
  check(!mainPack.files.some((f) => /^(src|crates|target|__test__|npm|scripts)\/|\.node$/.test(f)), 'main tarball holds sources, tests or binaries')

  // A user's project: both tarballs, installed without the registry.
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'verify-pack-app', version: '1.0.0', private: true }))
  run('npm', ['install', '--offline', '--no-package-lock', platformPack.tarball, mainPack.tarball], app)

  writeFileSync(
    join(app, 'check.cjs'),
    `const assert = require('node:assert/strict')
const path = require('node:path')
const inside = (p) => !path.relative(__dirname, p).startsWith('..')
const resolved = require.resolve('code-runtime-quickjs')
assert.ok(inside(resolved), 'code-runtime-quickjs resolved outside the project: ' + resolved)
const binary = require.resolve(${JSON.stringify(`${pkg.name}-${platform}`)})
assert.ok(inside(binary) && binary.endsWith(${JSON.stringify(binaryName)}), 'binary resolved to ' + binary)
const installed = require('code-runtime-quickjs/package.json')
assert.equal(installed.optionalDependencies[${JSON.stringify(`${pkg.name}-${platform}`)}], installed.version)
const { CodeRuntime, RESERVED_BINDING_GLOBALS } = require('code-runtime-quickjs')
assert.ok(RESERVED_BINDING_GLOBALS.has('console'))
;(async () => {
  const runtime = new CodeRuntime({ threads: 1 })
  const result = await runtime.run({
    program: 'const r = await tools.echo({ x: 1 }); console.log("got", r.x); return r',
    bindings: [{ global: 'tools', functions: { echo: async (args) => args } }],
  })
  assert.deepEqual(result, { logs: ['got 1'], value: { x: 1 } })
  await runtime.dispose()
  const { QuickJSExecutor } = require('code-runtime-quickjs/codemode')
  const executor = new QuickJSExecutor({ runtime: { threads: 1 } })
  const executed = await executor.execute('async () => await codemode.add(2, 3)', [{ name: 'codemode', fns: { add: async (a, b) => a + b } }])
  assert.deepEqual(executed, { result: 5, logs: [] })
  await executor.dispose()
  console.log('require ok')
})().catch((e) => { console.error(e); process.exit(1) })
`,
  )
  writeFileSync(
    join(app, 'check.mjs'),
    `import assert from 'node:assert/strict'
import { CodeRuntime, PORTABLE_RESERVED_WORDS } from 'code-runtime-quickjs'
import * as namespace from 'code-runtime-quickjs'
assert.equal(namespace.default.CodeRuntime, CodeRuntime)
assert.ok(PORTABLE_RESERVED_WORDS.has('await'))
const runtime = new CodeRuntime({ threads: 1 })
const result = await runtime.run({
  program: 'interface P { n: number }; const p: P = await tools.double({ n: 21 }); return p.n',
  bindings: [{ global: 'tools', functions: { double: async ({ n }) => ({ n: n * 2 }) } }],
})
assert.deepEqual(result, { logs: [], value: 42 })
await runtime.dispose()
const { QuickJSExecutor } = await import('code-runtime-quickjs/codemode')
const executor = new QuickJSExecutor({ runtime: { threads: 1 }, timeoutMs: 5000 })
assert.deepEqual(await executor.execute('async () => { console.log("hi"); return 1 }', {}), { result: 1, logs: ['hi'] })
await executor.dispose()
console.log('import ok')
`,
  )
  writeFileSync(join(app, 'program.ts'), 'const hits: string[] = await tools.search({ q: "x" })\nreturn hits.length\n')
  writeFileSync(join(app, 'tools.mjs'), 'export async function search({ q }) { return [q, q] }\n')
  const node = process.execPath
  check(run(node, ['check.cjs'], app).includes('require ok'), 'check.cjs')
  check(run(node, ['check.mjs'], app).includes('import ok'), 'check.mjs')
  const bin = join(app, 'node_modules', pkg.name, pkg.bin[pkg.name])
  const cliOut = JSON.parse(run(node, [bin, 'run', 'program.ts', '--bindings', 'tools.mjs', '--json'], app))
  check(JSON.stringify(cliOut) === '{"logs":[],"value":2}', `command line printed ${JSON.stringify(cliOut)}`)

  // The exported types, from an ES module and a CommonJS module, under --strict.
  const usage = `const config: CodeRuntimeConfig = { computeMs: 1000, maxWallMs: 5000, maxOutputBytes: 4096, maxHeapMb: 64, threads: 1 }
const echo: CodeBindingFunction = async (args) => args as CodeJsonValue
const errorClass: CodeBindingErrorClass = { name: 'ToolCallError', memberNameProperty: 'toolName' }
const tools: CodeBindingNamespace = { global: 'tools', functions: { echo }, errorClass }
const request: CodeRunRequest = { program: 'return 1', bindings: [tools] }
export async function main(): Promise<CodeJsonValue | undefined> {
  const runtime = new CodeRuntime(config)
  const result: CodeRunResult = await runtime.run(request)
  const failure: CodeRunFailure | undefined = result.error
  if (failure?.kind === 'timeout' && RESERVED_BINDING_GLOBALS.has('console')) return failure.message
  await runtime.dispose()
  const language: 'typescript' = runtime.language
  return language
}
// @ts-expect-error not a config key
new CodeRuntime({ computeMS: 1 })
export async function codemode(): Promise<unknown> {
  const executor = new QuickJSExecutor({ runtime: config, timeoutMs: 1000 })
  const providers: ResolvedProvider[] = [{ name: 'db', fns: { query: async (sql) => [sql] }, positionalArgs: true }]
  const result: ExecuteResult = await executor.execute('async () => 1', providers)
  await executor.dispose()
  return result.error ?? result.result
}
`
  const names = 'CodeRuntime, RESERVED_BINDING_GLOBALS, type CodeRuntimeConfig, type CodeRunRequest, type CodeRunResult, type CodeRunFailure, type CodeBindingNamespace, type CodeBindingFunction, type CodeBindingErrorClass, type CodeJsonValue'
  const codemodeImport = "import { QuickJSExecutor, type ExecuteResult, type ResolvedProvider } from 'code-runtime-quickjs/codemode'"
  writeFileSync(join(app, 'usage.mts'), `import { ${names} } from 'code-runtime-quickjs'\n${codemodeImport}\n${usage}`)
  writeFileSync(join(app, 'usage.cts'), `import runtimePackage = require('code-runtime-quickjs')\nimport { ${names} } from 'code-runtime-quickjs'\n${codemodeImport}\nvoid runtimePackage.CodeRuntime\n${usage}`)
  const compilerOptions = { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'esnext.disposable', 'dom'], types: [] }
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['usage.mts', 'usage.cts'] }))
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  run(node, [tsc, '-p', 'tsconfig.json'], app)
  // And with nothing but ES2022: no @types/node, no DOM, no esnext.disposable.
  const bare = { ...compilerOptions, lib: ['es2022'] }
  writeFileSync(join(app, 'tsconfig.bare.json'), JSON.stringify({ compilerOptions: bare, files: ['usage.mts', 'usage.cts'] }))
  run(node, [tsc, '-p', 'tsconfig.bare.json'], app)
  // The check has teeth: a wrong type is reported.
  writeFileSync(join(app, 'usage.mts'), `import { CodeRuntime } from 'code-runtime-quickjs'\nconst n: number = new CodeRuntime().language\nvoid n\n`)
  const wrong = spawnSync(node, [tsc, '-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8', env: cleanEnv })
  check(wrong.status !== 0 && wrong.stdout.includes('TS2322'), `tsc accepted a wrong type:\n${wrong.stdout}`)

  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`verify-pack: ok (${platform}; main ${mainPack.files.length} files, platform ${platformPack.files.length} files; ${seconds}s)`)
} catch (error) {
  console.error(`verify-pack: FAILED: ${error.message}`)
  process.exitCode = 1
} finally {
  if (process.env.KEEP_VERIFY_PACK === '1') console.log(`verify-pack: kept ${temp}`)
  else rmSync(temp, { recursive: true, force: true })
}
