// Makes a fresh clone runnable: installs npm dependencies when they are missing, and
// builds the native addon (release) when it is missing or older than its Rust sources.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { homedir } from 'node:os'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })

if (!existsSync(join(root, 'node_modules', '@napi-rs', 'cli')) || !existsSync(join(root, 'node_modules', 'vitest'))) {
  console.error('[ensure-built] installing npm dependencies (npm ci)')
  run(npm, ['ci', '--no-audit', '--no-fund'])
}

function newest(path) {
  if (!existsSync(path)) return 0
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  let m = 0
  for (const name of readdirSync(path)) {
    if (name === 'target' || name === 'node_modules') continue
    m = Math.max(m, newest(join(path, name)))
  }
  return m
}

const triple = `${process.platform}-${process.arch}${process.platform === 'linux' ? '-gnu' : ''}`
const addon = join(root, `code-runtime.${triple}.node`)
const sources = ['src', 'crates', 'Cargo.toml', 'Cargo.lock', 'build.rs'].map((p) => newest(join(root, p)))
const stale = !existsSync(addon) || statSync(addon).mtimeMs < Math.max(...sources)

if (stale || process.env.CODE_RUNTIME_REBUILD === '1') {
  console.error('[ensure-built] building the native addon (cargo, release)')
  const env = {}
  if (!process.env.CARGO_TARGET_DIR) env.CARGO_TARGET_DIR = join(homedir(), '.cache', 'code-runtime-target')
  run(npm, ['run', '--silent', 'build'], env)
}
