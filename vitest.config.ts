import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['__test__/**/*.spec.ts'],
    // A native crash then kills one worker process, not the whole run.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
