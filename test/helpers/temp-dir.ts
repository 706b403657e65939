import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';

/** A fresh temporary folder per call, removed after the test. */
export function useTempDirs(): (prefix?: string) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return (prefix = 'omnipos-test-') => {
    const d = mkdtempSync(path.join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}

/**
 * One temporary folder for the tests of a file (or a describe): made now, removed after them, after the
 * `afterAll` hooks registered later (vitest runs those first), so a daemon on it has stopped.
 */
export function tempDirForFile(prefix = 'omnipos-test-'): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(() => rmSync(d, { recursive: true, force: true }));
  return d;
}
