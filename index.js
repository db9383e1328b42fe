'use strict'
// The package entry: the contract's `CodeRuntime` over the generated native binding.
//
// This file owns what napi cannot express well: validating config and requests with
// messages that name the field, AbortSignal listeners (added per run, always removed),
// turning the native result JSON into the result object, and keeping the Node process
// alive exactly while a run is in flight (the native side only holds weak handles).
// The engine itself — transpiling, executing, measuring — is Rust (see docs/architecture.md).
//
// lib/loader.js      the native addon, with a clear error when it cannot load
// lib/validation.js  config, session options and requests; the reserved-name sets
// lib/lossless.js    the lossless check of binding answers and their JSON text
// lib/session.js     CodeSession
// lib/runtime.js     CodeRuntime: runs, event dispatch, call answers, metrics
// lib/cordis.js      the package as a cordis plugin (`name`, `provide`, `Config`, `apply`)

const { CodeRuntime } = require('./lib/runtime.js')
const { CodeSession } = require('./lib/session.js')
const cordis = require('./lib/cordis.js')
const { RESERVED_BINDING_GLOBALS, RESERVED_ERROR_MEMBERS, PORTABLE_RESERVED_WORDS } = require('./lib/validation.js')

module.exports.CodeRuntime = CodeRuntime
module.exports.CodeSession = CodeSession
module.exports.RESERVED_BINDING_GLOBALS = RESERVED_BINDING_GLOBALS
module.exports.RESERVED_ERROR_MEMBERS = RESERVED_ERROR_MEMBERS
module.exports.PORTABLE_RESERVED_WORDS = PORTABLE_RESERVED_WORDS

// The package is itself a cordis plugin providing `codeRuntime`, so a `cordis.yml` entry can
// name it: cordis loaders take the module's exports as the plugin object.
module.exports.name = cordis.plugin.name
module.exports.provide = cordis.plugin.provide
module.exports.Config = cordis.plugin.Config
module.exports.apply = cordis.plugin.apply
