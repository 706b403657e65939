import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** What every project shares (not `extends: true`: the contract count below must run once, at the root). */
const shared = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  // Every answer and event the daemon sends a test is held to its OpenAPI document (test/setup/contract.ts).
  setupFiles: ['test/setup/contract.ts'],
};

/**
 * The suite by slice (CONTRIBUTING.md): `npm run test:unit` runs the project `unit` alone, `npm test` all three.
 * unit: test/unit (no daemon, no device, no browser); integration: real parts over loopback, ptys and SQLite
 * files; browser: the screens in chromium.
 */
export default defineConfig({
  test: {
    // Test files at once: vitest's default (one less than the cores) is one on CI's two cores, and most of a test's
    // time is spent waiting on its daemon, pinpad, sockets and child processes, not on a core.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The count of answers and events checked against the document, once for the whole run.
    globalSetup: ['test/setup/contract-count.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'src/**/*.test.ts', 'drivers/**/*.test.ts', 'tables/**/*.test.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**', 'test/browser/**', '**/node_modules/**'],
        },
      },
      { test: { ...shared, name: 'browser', include: ['test/browser/**/*.test.ts'] } },
    ],
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
  },
});
