import { createRequire } from 'node:module'
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
