// The design code-runtime-quickjs replaces, kept as the reference every benchmark compares
// against: one fresh `node:worker_threads` Worker per run, an empty `env`, the program run as
// the body of an AsyncFunction, bindings called over the message port, and `terminate()` at
// the end. Programs must be plain JavaScript (this baseline strips no types).
//
//   const rt = new WorkerThreadRuntime()
//   await rt.run({ program: 'return await tools.echo({ a: 1 })', bindings: [{ global: 'tools', functions: { echo } }] })
import { Worker } from 'node:worker_threads'

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const logs = []
const pending = new Map()
let nextCall = 0
globalThis.console = { log: (...a) => logs.push(a.map(String).join(' ')) }
for (const k of ['info', 'warn', 'error', 'debug']) console[k] = console.log
parentPort.on('message', (m) => {
  const p = pending.get(m.id)
  if (!p) return
  pending.delete(m.id)
  if (m.ok) p.resolve(m.value)
  else p.reject(new Error(m.message))
})
for (const ns of workerData.bindings) {
  const obj = Object.create(null)
  for (const name of ns.members) {
    obj[name] = (args) => new Promise((resolve, reject) => {
      const id = nextCall++
      pending.set(id, { resolve, reject })
      parentPort.postMessage({ type: 'call', id, ns: ns.global, name, args })
    })
  }
  globalThis[ns.global] = obj
}
const AsyncFunction = (async () => {}).constructor
;(async () => {
  try {
    const value = await new AsyncFunction('"use strict";\\n' + workerData.program)()
    parentPort.postMessage({ type: 'done', logs, value })
  } catch (e) {
    parentPort.postMessage({ type: 'done', logs, error: { kind: 'exception', message: e && e.stack ? e.stack : String(e) } })
  }
})()
`

export class WorkerThreadRuntime {
  language = 'typescript'
  isolation = 'worker-thread'

  run({ program, bindings = [] }) {
    const fns = new Map(bindings.map((ns) => [ns.global, ns.functions]))
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      env: {},
      workerData: { program, bindings: bindings.map((ns) => ({ global: ns.global, members: Object.keys(ns.functions) })) },
    })
    return new Promise((resolve) => {
      let settled = false
      const finish = (result) => {
        if (settled) return
        settled = true
        worker.terminate().then(() => resolve(result))
      }
      worker.on('message', (m) => {
        if (m.type === 'done') {
          const result = { logs: m.logs }
          if (m.error) result.error = m.error
          else if (m.value !== undefined) result.value = m.value
          finish(result)
          return
        }
        Promise.resolve()
          .then(() => fns.get(m.ns)[m.name](m.args))
          .then(
            (value) => worker.postMessage({ id: m.id, ok: true, value }),
            (e) => worker.postMessage({ id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) }),
          )
      })
      worker.on('error', (e) => finish({ logs: [], error: { kind: 'exception', message: String(e && e.stack) } }))
      worker.on('exit', (code) => finish({ logs: [], error: { kind: 'worker-exit', message: `worker exited with code ${code}` } }))
    })
  }

  async dispose() {}
}
