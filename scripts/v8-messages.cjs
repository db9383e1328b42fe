'use strict'
// Prints, for each program of a JSON array read from stdin, the first line(s) of what V8
// reports when it fails: the `Name: message` header of the thrown error's stack (or
// String(value) for anything else), or `(no error)`; with `--positions`, each as [line,
// position], the position being a compile-time SyntaxError's `line:column` in the program
// (else null). Each program runs as CodeRuntime runs it: the body of an async function in strict mode, in a fresh node:vm context that has a
// `tools` namespace with one function, `echo`. The differential test
// (__test__/messages.spec.ts) and scripts/record-messages.mjs run it with the Node under test
// and with a Node 24 binary. CommonJS, no dependencies: any Node 18+ binary can run it.
const vm = require('node:vm')
const fs = require('node:fs')

process.on('unhandledRejection', () => {})

/**
 * Where V8 places a compile-time SyntaxError in the program, `line:column` (Node decorates
 * its stack with the wrapped text's line and a caret), or null.
 */
function position(thrown) {
  const m = typeof thrown?.stack === 'string' && /^[^\n]*:(\d+)\n[^\n]*\n( *)\^+\n\n/.exec(thrown.stack)
  return m ? `${Number(m[1]) - 1}:${m[2].length + 1}` : null
}

/** Whether the stack starts with Node's decoration of a compile-time error (caret or not). */
const decorated = (thrown) =>
  typeof thrown?.stack === 'string' && /^[^\n]*:\d+\n[\s\S]*?\n\n(?=[A-Za-z]*Error)/.test(thrown.stack)

function header(thrown) {
  if (thrown !== null && typeof thrown === 'object' && typeof thrown.stack === 'string') {
    // A compile-time SyntaxError's stack starts with Node's decoration (file:line, the
    // line, a caret, a blank line).
    const stack = decorated(thrown) ? thrown.stack.slice(thrown.stack.indexOf('\n\n') + 2) : thrown.stack
    const at = stack.indexOf('\n    at ')
    return at < 0 ? stack : stack.slice(0, at)
  }
  try {
    return String(thrown)
  } catch {
    return '(unprintable)'
  }
}

async function main() {
  const programs = JSON.parse(fs.readFileSync(0, 'utf8'))
  const withPositions = process.argv.includes('--positions')
  const lines = []
  for (const program of programs) {
    const tools = Object.create(null)
    tools.echo = async (args) => args
    const context = vm.createContext({ tools })
    try {
      const body = vm.runInContext(`(async function () {"use strict";\n${program}\n})`, context)
      await body()
      lines.push(withPositions ? ['(no error)', null] : '(no error)')
    } catch (thrown) {
      lines.push(withPositions ? [header(thrown), position(thrown)] : header(thrown))
    }
  }
  process.stdout.write(JSON.stringify(lines))
}

main()
