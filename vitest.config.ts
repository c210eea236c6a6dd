import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 must load once, or its classes are "from another module or realm".
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // Each file's time, slowest first, and the run's against its budget (TEST_BUDGET_SECONDS).
    reporters: ['default', './test/support/timing-reporter.ts'],
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'workflows/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
});
