// What the agent's cordis loader does with a `cordis.yml` entry's `name`: import the package
// by name and unwrap its exports (`@deepseek-ai/cordis-plugin-loader`'s unwrapExports).
export async function loadByName(name) {
  let exports = await import(name)
  exports = exports.default ?? exports
  if (!exports.__esModule) return exports
  return exports.default ?? exports
}

/** One observation per line, for the spec to read. */
export const report = (step, value) => process.stdout.write(`${JSON.stringify({ step, value })}\n`)

/** The run the consumer (Code Mode's part) makes through `ctx.codeRuntime`. */
export async function useRuntime(runtime) {
  const result = await runtime.run({
    program: 'const r: { n: number } = await tools.twice({ n: 21 }); console.log("n", r.n); return r.n',
    bindings: [{ global: 'tools', functions: { twice: async ({ n }) => ({ n: n * 2 }) } }],
  })
  return { language: runtime.language, isolation: runtime.isolation, result }
}

/** Resolves with `probe()`'s first truthy value, polled every 10 ms for up to 10 s. */
export async function waitFor(probe) {
  for (let i = 0; i < 1000; i++) {
    const value = probe()
    if (value) return value
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`timed out waiting for ${probe}`)
}
