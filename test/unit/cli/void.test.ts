import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured as cli } from '../../helpers/cli.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * `--supervisor-password-file` naming no file (or a directory) is the caller's mistake: a usage
 * error (exit 2) that names the file and says why, before anything is asked of the daemon — for
 * `omnipos void` and `omnipos cnp void` alike (src/cli/void.ts `readPasswordFile`).
 */
const tempDir = useTempDirs();

describe('a supervisor password file that cannot be read', () => {
  const commands = [
    ['void', '12'],
    ['cnp', 'void', '12'],
    ['cnp', 'card', 'remove', '3'],
  ];

  it.each(commands)('omnipos %s %s …: no such file is exit 2, naming the file', async (...argv: string[]) => {
    const dir = tempDir();
    const missing = path.join(dir, 'no-such-password');
    const r = await cli([...argv, '--supervisor-password-file', missing], {
      OMNIPOS_CONFIG: '',
      OMNIPOS_STATE_DIR: dir,
    });
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain(missing);
    expect(r.err).toContain('no such file');
    expect(r.err).not.toMatch(/unexpected error/i);
  });

  it('a directory is exit 2 too; an empty file as before', async () => {
    const dir = tempDir();
    const folder = path.join(dir, 'a-folder');
    mkdirSync(folder);
    const env = { OMNIPOS_CONFIG: '', OMNIPOS_STATE_DIR: dir };
    const r = await cli(['cnp', 'void', '12', '--supervisor-password-file', folder], env);
    expect([r.code, r.err.includes(folder), r.err.includes('a directory')]).toEqual([2, true, true]);
    const empty = path.join(dir, 'empty');
    writeFileSync(empty, '');
    const e = await cli(['void', '12', '--supervisor-password-file', empty], env);
    expect([e.code, e.err.includes('empty')]).toEqual([2, true]);
  });
});
