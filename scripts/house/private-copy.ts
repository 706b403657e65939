// A private copy of the tree for the house's redone changes (scripts/house/second-acquirer.ts,
// new-operation.ts): the tracked and untracked files (not the ignored ones), node_modules linked, one
// commit, so what a change touched is `git status` of the copy, not a regular expression over the code.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface PrivateCopy {
  dir: string;
  /** The copy's files added or changed since it was made, repository-relative, sorted. */
  changed(): string[];
  remove(): void;
}

export function privateCopy(root: string, prefix: string): PrivateCopy {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '');
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    try {
      copyFileSync(path.join(root, f), path.join(dir, f));
    } catch {
      // a file deleted in the work tree
    }
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=h', '-c', 'user.email=h@h', 'commit', '-qm', 'base'], { cwd: dir });
  return {
    dir,
    changed: () =>
      execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: dir, encoding: 'utf8' })
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.slice(3))
        .sort(),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Inserts `insert` after the first `after` in `file` (an edit a person would make), or throws naming what is missing. */
export function insertAfter(file: string, after: string, insert: string): void {
  const s = readFileSync(file, 'utf8');
  const i = s.indexOf(after);
  if (i < 0) throw new Error(`${file}: no ${JSON.stringify(after)}`);
  writeFileSync(file, s.slice(0, i + after.length) + insert + s.slice(i + after.length));
}
