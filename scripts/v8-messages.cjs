'use strict'
// Prints, for each program of a JSON array read from stdin, the first line(s) of what V8
// reports when it fails: the `Name: message` header of the thrown error's stack (or
// String(value) for anything else), or `(no error)`. Each program runs as CodeRuntime runs
// it: the body of an async function in strict mode, in a fresh node:vm context that has a
// `tools` namespace with one function, `echo`. The differential test
// (__test__/messages.spec.ts) and scripts/record-messages.mjs run it with the Node under test
// and with a Node 24 binary. CommonJS, no dependencies: any Node 18+ binary can run it.
const vm = require('node:vm')
const fs = require('node:fs')

process.on('unhandledRejection', () => {})

function header(thrown) {
  if (thrown !== null && typeof thrown === 'object' && typeof thrown.stack === 'string') {
    const at = thrown.stack.indexOf('\n    at ')
    return at < 0 ? thrown.stack : thrown.stack.slice(0, at)
  }
  try {
    return String(thrown)
  } catch {
    return '(unprintable)'
  }
}

async function main() {
  const programs = JSON.parse(fs.readFileSync(0, 'utf8'))
  const lines = []
  for (const program of programs) {
    const tools = Object.create(null)
    tools.echo = async (args) => args
    const context = vm.createContext({ tools })
    try {
      const body = vm.runInContext(`(async function () {"use strict";\n${program}\n})`, context)
      await body()
      lines.push('(no error)')
    } catch (thrown) {
      lines.push(header(thrown))
    }
  }
  process.stdout.write(JSON.stringify(lines))
}

main()
