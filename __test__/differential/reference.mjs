// The reference side of the console differential test: a program (the body of a strict-mode
// async function, as runs are; plain JavaScript) run by the Node executing this file inside a node:vm context
// whose `console` is a Node `Console` with the run's console options (SPEC "logs"), both
// streams into one list of entries, Node's process warnings as `Warning: <text>` entries.
// `normalize` puts a run's result and the reference's into the compared shape: logs with
// durations and stack frames normalised (frame positions belong to the stack-trace work, not
// to the console), and a failure as the first line of its message.
import { Console } from 'node:console'
import vm from 'node:vm'

export const INSPECT_OPTIONS = { depth: 4, maxArrayLength: 100, maxStringLength: 10000 }

/** The web globals a run has that a bare vm context lacks, handed over from this Node. */
const WEB_GLOBALS = ['URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'structuredClone', 'atob', 'btoa', 'setTimeout', 'clearTimeout', 'queueMicrotask']

/** Runs `source` in a fresh vm context; resolves `{ logs, error? }` as a run would. */
export async function referenceRun(source) {
  const logs = []
  const stream = { write: (s) => logs.push(s.endsWith('\n') ? s.slice(0, -1) : s) > 0 }
  const console = new Console({
    stdout: stream,
    stderr: stream,
    ignoreErrors: false,
    colorMode: false,
    groupIndentation: 2,
    inspectOptions: { ...INSPECT_OPTIONS },
  })
  const sandbox = { console }
  for (const name of WEB_GLOBALS) sandbox[name] = globalThis[name]
  const context = vm.createContext(sandbox)
  const emitWarning = process.emitWarning
  process.emitWarning = (w) => void logs.push(`Warning: ${w}`)
  try {
    await vm.runInContext(`(async () => {'use strict';\n${source}\n})()`, context, { filename: 'program.js' })
    return { logs }
  } catch (e) {
    return { logs, error: { kind: 'exception', message: describe(e) } }
  } finally {
    process.emitWarning = emitWarning
  }
}

function describe(e) {
  if (e !== null && (typeof e === 'object' || typeof e === 'function') && typeof e.stack === 'string') return e.stack
  try {
    return String(e)
  } catch {
    return '<unprintable>'
  }
}

const DURATION = /\b\d+(?:\.\d{1,3})?(?:ms|s)\b/g
// A run of stack frame lines, whatever their positions and number.
const FRAMES = /(?:\n *at [^\n]*)+/g

/** The compared shape of a run's (or the reference's) result. */
export function normalize(result) {
  const text = (s) => s.replace(DURATION, '<ms>').replace(FRAMES, (m) => `\n${m.match(/^\n( *)/)[1]}at <frames>`)
  const out = { logs: result.logs.map(text) }
  if (result.error) out.error = `${result.error.kind}: ${result.error.message.split('\n')[0]}`
  return out
}
