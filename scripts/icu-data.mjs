// Rewrites crates/core/icu-data/, the ICU4X data the addon compiles in: ICU4X 2.4's own
// compiled data for CLDR's modern locales only (tools/icu-data/modern.txt), so the addon keeps
// within its size limit. Every ICU4X data crate reads this folder instead of its own data
// (ICU4X_DATA_DIR, set in .cargo/config.toml). Needs no download beyond the crates.
//
//   node scripts/icu-data.mjs
//
// Run it after changing modern.txt or the ICU4X version (then first regenerate
// tools/icu-data/src/markers.rs with tools/icu-data/gen.py). The tool is
// built and run from outside the checkout, so the repository's ICU4X_DATA_DIR does not
// apply to it: its source is ICU4X's full data, never the filtered copy.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'crates', 'core', 'icu-data')
const env = { ...process.env }
delete env.ICU4X_DATA_DIR
env.CARGO_TARGET_DIR = process.env.ICU_DATA_TARGET_DIR ?? join(homedir(), '.cache', 'code-runtime-icu-data-target')

rmSync(out, { recursive: true, force: true })
execFileSync('cargo', ['run', '--release', '--manifest-path', join(root, 'tools', 'icu-data', 'Cargo.toml'), '--', out], {
  cwd: tmpdir(),
  env,
  stdio: 'inherit',
})
