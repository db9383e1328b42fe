/**
 * `code-runtime-quickjs/cordis`: the cordis plugin that provides `ctx.codeRuntime` (a
 * {@link CodeRuntime}). The package entry is the same plugin; see its `name`, `provide`,
 * `Config` and `apply`.
 *
 * @packageDocumentation
 */

export { name, provide, Config, apply, type CodeRuntimePluginConfig, type CodeRuntimeResolvedConfig } from './index'
