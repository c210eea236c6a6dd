import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 must load once, or its classes are "from another module or realm".
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'workflows/**/*.test.ts', 'rest-facade/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
});
