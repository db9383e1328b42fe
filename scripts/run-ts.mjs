// Runs a TypeScript file on any Node version (20.6+): a module hook strips its types with the
// repo's TypeScript (transpile only, no type check) before Node loads it as an ES module.
//
//   node scripts/run-ts.mjs examples/codemode.ts
import { register } from 'node:module'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const file = process.argv[2]
if (!file) {
  console.error('usage: node scripts/run-ts.mjs <file.ts>')
  process.exit(2)
}
const typescript = pathToFileURL(createRequire(import.meta.url).resolve('typescript')).href
const hooks = `
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import ts from ${JSON.stringify(typescript)}
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !/\\.[cm]?ts$/.test(url)) return nextLoad(url, context)
  const fileName = fileURLToPath(url)
  const { outputText } = ts.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  })
  return { format: 'module', source: outputText, shortCircuit: true }
}
`
register(`data:text/javascript,${encodeURIComponent(hooks)}`)
await import(pathToFileURL(resolve(file)).href)
