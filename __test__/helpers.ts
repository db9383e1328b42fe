import { createRequire } from 'node:module'
import { expect } from 'vitest'
import type * as Api from '../index'

const require = createRequire(import.meta.url)

/** The package entry, loaded the way a CommonJS user loads it. */
export const api: typeof Api = require('../index.js')
export const { CodeRuntime } = api

/** A runtime for one test file; disposed by the caller's afterAll. */
export function runtime(config?: Api.CodeRuntimeConfig) {
  return new CodeRuntime(config)
}

/** Runs a program with no bindings. */
export function runOn(rt: Api.CodeRuntime, program: string, extra: Partial<Api.CodeRunRequest> = {}) {
  return rt.run({ program, bindings: [], ...extra })
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (body: string) => () => Promise<unknown>

/**
 * Differential snippets: `body` is an async function's body that returns a JSON-able value,
 * run after `prelude` both in Node's own globals (the test process) and in the sandbox.
 * `same` expects the sandbox to give exactly Node's value, unless `pinned` names another
 * answer for that body (where the two can't agree: say why at the pin).
 */
export function differential(
  rt: Api.CodeRuntime,
  prelude: string,
  pinned: (body: string) => { value: unknown } | undefined = () => undefined,
) {
  /** What `body` returns when Node runs it. */
  async function inNode(body: string) {
    const value = await new AsyncFunction(`'use strict';\n${prelude}\n${body}`)()
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value))
  }
  /** What `body` returns in the sandbox (which must not throw). */
  async function inSandbox(body: string) {
    const r = await runOn(rt, `${prelude}\n${body}`)
    expect(r.error, body).toBeUndefined()
    return r.value
  }
  /** Runs `body` in both and expects the sandbox to give Node's value (or the pinned one). */
  async function same(body: string) {
    const [node, sandbox] = await Promise.all([inNode(body), inSandbox(body)])
    const pin = pinned(body)
    expect(sandbox, body).toEqual(pin === undefined ? node : pin.value)
    return node
  }
  return { inNode, inSandbox, same }
}
