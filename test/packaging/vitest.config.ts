import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** `npm run test:package`: the Debian package test, apart from the default suite (it takes minutes). */
export default defineConfig({
  root: path.resolve(import.meta.dirname, '..', '..'),
  test: {
    include: ['test/packaging/**/*.pkgtest.ts'],
    testTimeout: 600_000,
    hookTimeout: 1_800_000,
    pool: 'forks',
  },
});
