import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No "issue N" markers in the code: a comment says what the code does and why, and points at a
 * file or the specification, not at the tracker of the session that wrote it (the same check as
 * `grep -rn -i "issue [0-9]\|#1[0-9]\b\|#2[0-9]\b" src drivers`).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const MARKER = /issue [0-9]|#[12][0-9]\b/i;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.(ts|js|html|css|md|json)$/.test(name) ? [full] : [];
  });
}

describe('habits: no issue markers in src/ and drivers/', () => {
  it('finds none', () => {
    const hits = [...files(path.join(ROOT, 'src')), ...files(path.join(ROOT, 'drivers'))].flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (MARKER.test(line) ? [`${path.relative(ROOT, f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
