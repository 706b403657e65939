import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'drivers/**/*.test.ts', 'tables/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every answer and event the daemon sends a test is held to its OpenAPI document (test/setup/contract.ts).
    setupFiles: ['test/setup/contract.ts'],
    globalSetup: ['test/setup/contract-count.ts'],
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
  },
});
