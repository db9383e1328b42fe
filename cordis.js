'use strict'
// `code-runtime-quickjs/cordis`: the cordis plugin that provides `ctx.codeRuntime` (see
// lib/cordis.js). The package entry is the same plugin; this subpath names it on its own.
module.exports = require('./lib/cordis.js').plugin
