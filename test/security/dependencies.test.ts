import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What the package installs in production (`npm ci --omit=dev`, packaging/build-deb.sh): no
 * node-forge (the sandbox's wallet decrypts with node:crypto) and no direct mock serial binding.
 * Read from package.json and the sources themselves.
 */
const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('production dependencies', () => {
  it('have no node-forge and no @serialport/binding-mock, and no program source imports either', () => {
    expect(Object.keys(pkg.dependencies)).not.toContain('node-forge');
    expect(Object.keys(pkg.dependencies)).not.toContain('@serialport/binding-mock');
    const users = ['src', 'drivers', 'tables']
      .flatMap((d) => sources(path.join(root, d)))
      .filter((f) => /['"](node-forge|@serialport\/binding-mock)['"]/.test(readFileSync(f, 'utf8')))
      .map((f) => path.relative(root, f));
    expect(users).toEqual([]);
  });
});
