import { expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

// scripts/verify-pack.mjs: the packed tarballs hold exactly what users need, and the package
// installs, loads (require and import), runs a program with a binding, and type-checks
// under --strict in a fresh project outside this checkout.
test('the packed package installs and works in a fresh project', () => {
  const root = join(__dirname, '..')
  const out = spawnSync(process.execPath, [join(root, 'scripts', 'verify-pack.mjs')], { cwd: root, encoding: 'utf8', timeout: 170_000 })
  expect(out.status, out.stdout + out.stderr).toBe(0)
  expect(out.stdout).toMatch(/^verify-pack: ok /m)
}, 180_000)

// The addon has a size limit of 20 MB per platform (most of it is ICU4X's data for Intl). Only
// a release build is measured: it is stripped (no .symtab), where fast and debug builds keep
// their symbols and are larger. The ELF check covers Linux; other platforms' builds skip it.
const ADDON_LIMIT = 20_000_000

/** Whether `file` is an ELF shared object with no symbol table (a release build). */
function isStrippedElf(file: string): boolean {
  const b = readFileSync(file)
  if (b.length < 64 || b.readUInt32BE(0) !== 0x7f454c46 || b[4] !== 2 || b[5] !== 1) return false
  const shoff = Number(b.readBigUInt64LE(0x28))
  const shentsize = b.readUInt16LE(0x3a)
  const shnum = b.readUInt16LE(0x3c)
  const strtab = shoff + b.readUInt16LE(0x3e) * shentsize
  const strOff = Number(b.readBigUInt64LE(strtab + 0x18))
  const names: string[] = []
  for (let i = 0; i < shnum; i++) {
    const at = strOff + b.readUInt32LE(shoff + i * shentsize)
    names.push(b.toString('latin1', at, b.indexOf(0, at)))
  }
  if (!names.includes('.text')) throw new Error(`${file}: no .text among its sections`)
  return !names.includes('.symtab')
}

const root = join(__dirname, '..')
const releaseAddons = readdirSync(root)
  .filter((f) => /^code-runtime\..*\.node$/.test(f))
  .map((f) => join(root, f))
  .filter(isStrippedElf)

test.runIf(releaseAddons.length > 0)('a release addon is at most 20 MB', () => {
  for (const file of releaseAddons) expect(statSync(file).size, file).toBeLessThanOrEqual(ADDON_LIMIT)
})

test('the stripped-build check tells release builds from builds with symbols', () => {
  expect(() => isStrippedElf(__filename)).not.toThrow()
  expect(isStrippedElf(__filename)).toBe(false)
})
