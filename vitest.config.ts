import { defineConfig } from 'vitest/config';

// graphql 16 must load once, or its classes are "from another module or realm".
const resolve = { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] };
// expect.poll waits up to 10 s (vitest's default is 1 s): a busy 2-core machine running two files at once can take
// seconds to deliver what a quiet one delivers at once; a poll that never matches still fails.
const options = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' as const, expect: { poll: { timeout: 10_000 } } };

// Files that need a process of their own: they replace a module for the whole file (vi.mock),
// set environment variables their spawned servers read, or install a process-wide runtime
// (Temporal's, a browser), or measure the process's own event loop (test/event-loop.test.ts: no
// other file's leftovers on it). Every other file runs in a worker that has imported the server
// already: the server's modules are evaluated once per worker rather than once per file (the
// files' imports summed to 132 s in a run of 276 s when each file had a process of its own).
const OWN_PROCESS = [
  'test/graphql-permissions.test.ts',
  'workflows/temporal/workflows.test.ts',
  'test/engine-temporal.test.ts',
  'test/temporal-replay.test.ts',
  'test/credential-cache.test.ts',
  'test/webhook-restart.test.ts',
  'test/cors-browser.test.ts',
  'test/event-loop.test.ts',
];

export default defineConfig({
  resolve,
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // Each file's time, slowest first, and the run's against its budget (TEST_BUDGET_SECONDS).
    reporters: ['default', './test/support/timing-reporter.ts'],
    maxWorkers: 2,
    fileParallelism: true,
    projects: [
      { resolve, test: { ...options, name: 'own-process', include: OWN_PROCESS, isolate: true } },
      {
        resolve,
        test: {
          ...options,
          name: 'shared',
          include: [
            'test/**/*.test.ts',
            'src/**/*.test.ts',
            'workflows/**/*.test.ts',
            'rest-facade/**/*.test.ts',
            'sdk/**/*.test.ts',
            'messenger/**/*.test.ts',
          ],
          exclude: OWN_PROCESS,
          isolate: false,
        },
      },
    ],
  },
});
