import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// .ci/run's second pass (another Node) sets CODE_RUNTIME_SKIP_LONG_RUNS=1: the soak and stress
// runs are most of the suite's time and nothing in them depends on the Node version.
const LONG_RUNS = process.env.CODE_RUNTIME_SKIP_LONG_RUNS === '1' ? ['__test__/soak.spec.ts', '__test__/stress.spec.ts'] : []

export default defineConfig({
  // `@cloudflare/codemode` (a devDependency for codemode.spec.ts) imports the Workers-only module
  // `cloudflare:workers`; it is inlined (transformed by Vite) so the alias can stand in for it.
  resolve: { alias: { 'cloudflare:workers': fileURLToPath(new URL('./__test__/stubs/cloudflare-workers.ts', import.meta.url)) } },
  test: {
    server: { deps: { inline: ['@cloudflare/codemode'] } },
    // A native crash then kills one worker process, not the whole run.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'runtime', include: ['__test__/**/*.spec.ts'], exclude: ['__test__/pack.spec.ts', ...LONG_RUNS], sequence: { groupOrder: 0 } } },
      // Packing and installing (npm, tsc) loads both cores for half a minute: it runs after
      // the timing-sensitive suites, not beside them.
      { extends: true, test: { name: 'package', include: ['__test__/pack.spec.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
})
