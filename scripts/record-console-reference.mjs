// Records what Node 24's console prints for every program of the console differential test
// (__test__/differential/programs.ts) into __test__/differential/node24.json, which the test
// compares runs with (the test itself runs on Node 20 too, whose console prints some values
// differently). Run it with a Node 24 binary whenever a corpus changes:
//
//   TZ=UTC /path/to/node24 scripts/record-console-reference.mjs
//
// `--print` writes the same JSON to stdout instead: the test's check that live Node 24 still
// prints what was recorded runs it in a plain process, because a vitest worker is not plain
// Node (its error-stack hooks reach the node:vm context and change how errors print).
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { normalize, referenceRun } from '../__test__/differential/reference.mjs'
import { allPrograms } from '../__test__/differential/programs.ts'

if (!process.version.startsWith('v24.')) throw new Error(`run this with Node 24 (this is ${process.version})`)
if (process.env.TZ !== 'UTC') throw new Error('run this with TZ=UTC (runs see UTC)')
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const expected = {}
for (const p of allPrograms()) expected[p.name] = normalize(await referenceRun(p.source))
const json = JSON.stringify({ node: process.version, expected }, null, 0) + '\n'
if (process.argv.includes('--print')) {
  process.stdout.write(json)
} else {
  writeFileSync(join(root, '__test__', 'differential', 'node24.json'), json)
  console.log(`recorded ${Object.keys(expected).length} programs with Node ${process.version}`)
}
