import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // A native crash then kills one worker process, not the whole run.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'runtime', include: ['__test__/**/*.spec.ts'], exclude: ['__test__/pack.spec.ts'], sequence: { groupOrder: 0 } } },
      // Packing and installing (npm, tsc) loads both cores for half a minute: it runs after
      // the timing-sensitive suites, not beside them.
      { extends: true, test: { name: 'package', include: ['__test__/pack.spec.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
})
