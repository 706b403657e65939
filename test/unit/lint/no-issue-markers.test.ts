import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No "issue N" markers in the code: a comment says what the code does and why, and points at a
 * file or the specification, not at the tracker of the session that wrote it (the same check as
 * `grep -rniE "issues? ?[-#]?[0-9]|#[12][0-9]\b" src drivers tables`): "issue 16", "issues 5 and 6",
 * "issue-21", "issue #21" and "#21" alike, in code, comments, pages and the tables' JSON comments.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const MARKER = /\bissues? ?[-#]?[0-9]|#[12][0-9]\b/i;
const AREAS = ['src', 'drivers', 'tables'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.(ts|js|html|css|md|json)$/.test(name) ? [full] : [];
  });
}

describe('habits: no issue markers in src/, drivers/ and tables/', () => {
  it('finds none', () => {
    const hits = AREAS.flatMap((a) => files(path.join(ROOT, a))).flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (MARKER.test(line) ? [`${path.relative(ROOT, f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it('the pattern catches the forms the code base has used, and not a colour or a count', () => {
    for (const line of ['(issue 16)', 'issues 5 and 6 add theirs', 'see issue-21', 'Issue #21', 'fixed in #19'])
      expect(MARKER.test(line), line).toBe(true);
    for (const line of ['color: #12abcd;', 'the tissue 5 layers', 'two issues with the host', 'PP_ISSUER 9F0B'])
      expect(MARKER.test(line), line).toBe(false);
  });
});
