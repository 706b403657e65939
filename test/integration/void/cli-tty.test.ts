import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!HAS_SCRIPT)('omnipos void on a real terminal (a pty by script(1))', () => {
  it('asks the supervisor password without echoing it, then says no daemon answers (exit 3)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-void-tty-'));
    try {
      const bin = path.resolve('node_modules/.bin/tsx');
      // the password is typed once the prompt is up; script(1) gives the command a pty as its terminal
      const r = spawnSync(
        'sh',
        ['-c', `(sleep 3; printf 'S3cr3t-typed\\r') | script -qfec "${bin} src/cli/bin.ts void 5" /dev/null`],
        {
          env: { ...process.env, OMNIPOS_STATE_DIR: dir, OMNIPOS_API__PORT: '1' },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      const out = r.stdout.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g'), '');
      expect(out).toContain('supervisor password: ');
      expect(out).not.toContain('S3cr3t-typed');
      expect(out).toContain('no omnipos daemon answers at http://127.0.0.1:1');
      expect(r.status).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
