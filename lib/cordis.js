'use strict'
// The package as a cordis plugin: it provides the `codeRuntime` service, so an agent's
// `cordis.yml` entry that names the worker-thread backend can name this package instead with
// nothing else changed. Written against what cordis 3 (npm's `cordis`) and cordis 4 (the
// `@deepseek-ai/cordis` fork, `cordis@4` pre-releases) both read from an object plugin —
// `apply(ctx, config)`, `name`, `provide`, `Config` — without importing cordis: `Config` is a
// function (cordis 3 calls it) that is also a Standard Schema (cordis 4 calls
// `Config['~standard'].validate`). The service is disposed when the plugin unloads or
// reloads (`ctx.effect`).

const { CodeRuntime } = require('./runtime.js')
const { validateConfig } = require('./validation.js')

const SERVICE = 'codeRuntime'
const LABEL = 'code-runtime-quickjs plugin config'
const PREFIX = 'code-runtime-quickjs: '
const BUDGETS = ['computeMs', 'maxWallMs', 'maxOutputBytes', 'maxHeapMb']
const MAX_TIMER_DELAY_MS = 2147483647

/** The worker-thread backend's name for the heap limit (its Node worker's old generation). */
const HEAP_ALIAS = 'maxOldGenerationSizeMb'

/**
 * The plugin's config as the runtime's: the worker-thread backend's keys (`computeMs`,
 * `maxWallMs`, `maxOutputBytes`, `maxOldGenerationSizeMb` as `maxHeapMb`) beside ours
 * (`maxHeapMb`, `threads`, `timeZone`), every one optional, with the backend's defaults (which are ours).
 * Throws a TypeError or RangeError naming the field.
 */
function Config(config) {
  if (config === undefined || config === null) config = {}
  if (typeof config !== 'object' || Array.isArray(config)) {
    throw new TypeError(`${LABEL} must be an object (got ${Array.isArray(config) ? 'an array' : typeof config})`)
  }
  const own = {}
  for (const key of Reflect.ownKeys(config)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(config, key)
    if (descriptor === undefined || !descriptor.enumerable) continue
    if (!('value' in descriptor)) throw new TypeError(`${LABEL}.${String(key)} must be a plain value, not an accessor`)
    own[key] = descriptor.value
  }
  // The worker-thread backend's checks, in its words, so its config errors read the same.
  for (const key of [...BUDGETS, HEAP_ALIAS]) {
    const value = own[key]
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
      throw new RangeError(`${PREFIX}config.${key} must be a positive number, got ${String(value)}`)
    }
  }
  if (own.maxOutputBytes !== undefined && !(Number.isSafeInteger(own.maxOutputBytes) && own.maxOutputBytes >= 4)) {
    throw new RangeError(`${PREFIX}config.maxOutputBytes must be a safe integer of at least 4, got ${String(own.maxOutputBytes)}`)
  }
  if (own.maxWallMs !== undefined && own.maxWallMs > MAX_TIMER_DELAY_MS) {
    throw new RangeError(`${PREFIX}config.maxWallMs must be at most ${MAX_TIMER_DELAY_MS} (Node clamps a longer setTimeout delay to 1ms), got ${String(own.maxWallMs)}`)
  }
  if (HEAP_ALIAS in own) {
    const heap = own[HEAP_ALIAS]
    delete own[HEAP_ALIAS]
    if (heap !== undefined) {
      if (own.maxHeapMb !== undefined && own.maxHeapMb !== heap) {
        throw new TypeError(`${LABEL} sets both maxHeapMb (${String(own.maxHeapMb)}) and ${HEAP_ALIAS} (${String(heap)}); they are the same limit`)
      }
      own.maxHeapMb = heap
    }
  }
  for (const key of Object.keys(own)) if (own[key] === undefined) delete own[key]
  const { computeMs, maxWallMs, maxOutputBytes, maxHeapMb, threads, timeZone } = validateConfig(own, LABEL)
  return { computeMs, maxWallMs, maxOutputBytes, maxHeapMb, threads, timeZone }
}

// Standard Schema v1 (https://standardschema.dev), as cordis 4 validates configs.
Object.defineProperty(Config, '~standard', {
  value: Object.freeze({
    version: 1,
    vendor: 'code-runtime-quickjs',
    validate(value) {
      try {
        return { value: Config(value) }
      } catch (error) {
        return { issues: [{ message: error instanceof Error ? error.message : String(error) }] }
      }
    },
  }),
})

/**
 * Starts a runtime for this plugin instance and provides it as `ctx.codeRuntime`; the
 * runtime is disposed (its runs end as `abort` / `runtime disposed`) when the instance
 * unloads or reloads, and cordis waits for that.
 */
function apply(ctx, config) {
  const runtime = new CodeRuntime(Config(config))
  // Registered first so it runs last: the service is withdrawn before the runtime goes.
  ctx.effect(() => () => runtime.dispose())
  // `in`, not a read: cordis 3 warns on reading a property it does not know.
  if ('fiber' in ctx) {
    // cordis 4: a service belongs to the fiber that provides it.
    ctx.provide(SERVICE, runtime)
  } else {
    // cordis 3: `set` declares the service and withdraws it with the plugin's scope.
    ctx.set(SERVICE, runtime)
  }
}

const plugin = { name: 'code-runtime-quickjs', provide: SERVICE, Config, apply }

module.exports = { plugin, Config, apply, SERVICE }
