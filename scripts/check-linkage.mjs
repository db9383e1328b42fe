// Reads a built Linux .node file's real dependencies (readelf from binutils) and fails when
// they do not fit its package: a `-gnu` binary may need no symbol version newer than
// --max-glibc (default 2.17, what the release builds link against), and a `-musl` binary
// must not depend on glibc at all (a musl build linked by the host's glibc `cc` does,
// silently, and then fails to load on Alpine). The bundled C++ of `ada-url` needs a C++
// runtime: the release builds link zig's libc++ statically (CXXSTDLIB=c++); a local gnu
// build links the host's libstdc++ (every glibc Node has it), whose version is shown.
//
//   node scripts/check-linkage.mjs code-runtime.linux-x64-gnu.node [--max-glibc 2.35]
import { execFileSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { basename } from 'node:path'

const args = process.argv.slice(2)
const flag = args.indexOf('--max-glibc')
const maxGlibc = flag === -1 ? '2.17' : args.splice(flag, 2)[1]
if (args.length === 0) {
  console.error('usage: node scripts/check-linkage.mjs <file.node>… [--max-glibc 2.17]')
  process.exit(2)
}

/** Compares dotted versions numerically: 2.9 < 2.17. */
const compare = (a, b) => {
  const x = a.split('.').map(Number)
  const y = b.split('.').map(Number)
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0)
  return 0
}

let failed = false
for (const file of args) {
  const readelf = (flag) => execFileSync('readelf', [flag, '-W', file], { encoding: 'utf8' })
  const needed = [...readelf('-d').matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1])
  const versions = [...new Set([...readelf('-V').matchAll(/Name: GLIBC_([0-9.]+)/g)].map((m) => m[1]))].sort(compare)
  const glibc = versions.at(-1)
  const cxx = [...new Set([...readelf('-V').matchAll(/Name: GLIBCXX_([0-9.]+)/g)].map((m) => m[1]))].sort(compare).at(-1)
  const megabytes = (statSync(file).size / 1e6).toFixed(1)
  console.log(`${basename(file)}: ${megabytes} MB; NEEDED ${needed.join(', ')}; ${glibc ? `needs GLIBC_${glibc}` : 'no glibc symbol versions'}${cxx ? `, GLIBCXX_${cxx}` : ''}`)
  if (/-musl\.node$/.test(file)) {
    const foreign = needed.filter((lib) => !/^libc\.(so|musl-[a-z0-9_]+\.so\.1)$/.test(lib))
    if (foreign.length > 0 || glibc) {
      console.error(`  a musl binary must need only musl's libc, not ${[...foreign, ...(glibc ? [`GLIBC_${glibc}`] : [])].join(', ')}`)
      failed = true
    }
  } else if (/-gnu\.node$/.test(file)) {
    if (!glibc || compare(glibc, maxGlibc) > 0) {
      console.error(`  needs GLIBC_${glibc}, newer than the supported floor GLIBC_${maxGlibc}`)
      failed = true
    }
  }
}
process.exit(failed ? 1 : 0)
