'use strict'
// The native loader: the generated `binding.js`, with a failure to load it turned into an
// error that says what to install or build. Loaded once, when the package is required.

/** The platforms a prebuilt binary is published for (`npm/<platform>/`). */
const PREBUILT_PLATFORMS = [
  'linux-x64-gnu', 'linux-x64-musl', 'linux-arm64-gnu', 'linux-arm64-musl',
  'darwin-x64', 'darwin-arm64', 'win32-x64-msvc',
] // prettier-ignore

/**
 * Loads the native addon through the generated loader (`binding.js`), replacing its generic
 * "Cannot find native binding" with an error that names this platform, the package that
 * should have provided the binary, and why loading it failed (e.g. a glibc too old).
 */
function loadNative() {
  try {
    return require('../binding.js')
  } catch (error) {
    const { platform, arch } = process
    let key = `${platform}-${arch}`
    if (platform === 'win32') key += '-msvc'
    if (platform === 'linux') {
      const report = process.report && typeof process.report.getReport === 'function' ? process.report.getReport() : null
      key += report && report.header && report.header.glibcVersionRuntime ? '-gnu' : '-musl'
    }
    const pkg = `code-runtime-quickjs-${key}`
    const reasons = []
    for (let e = error; e instanceof Error && reasons.length < 8; e = e.cause) {
      // The loader re-wraps each attempt's error, keeping only its message.
      if (!/^Cannot find (module|native binding)\b/.test(e.message)) reasons.push(e.message.split('\n')[0])
    }
    let message = `code-runtime-quickjs: no native binary loaded for this platform (${key}, Node ${process.version}). `
    if (!PREBUILT_PLATFORMS.includes(key)) {
      message += `Prebuilt binaries exist for ${PREBUILT_PLATFORMS.join(', ')}; on any other platform build from source (needs a Rust toolchain).`
    } else if (reasons.length > 0) {
      message += `The binary was found but failed to load: ${reasons.join('; ')}`
    } else {
      message +=
        `Its binary comes in the optional dependency ${pkg}, which is not installed: ` +
        'reinstall without --no-optional / --omit=optional (with a lockfile made on another platform, ' +
        'delete node_modules and package-lock.json first: npm/cli#4828).'
    }
    const failure = new Error(message)
    failure.code = 'ERR_CODE_RUNTIME_NO_BINARY'
    failure.cause = error
    throw failure
  }
}

module.exports = loadNative()
