import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { omniposArgs } from '../../helpers/omnipos-process.js';

const tempDir = useTempDirs();

describe('omnipos run', () => {
  it('starts on the default configuration, creates its state, and stops cleanly on SIGTERM', async () => {
    const state = tempDir();
    const child = spawn(process.execPath, omniposArgs(['run']), {
      env: {
        ...process.env,
        OMNIPOS_STATE_DIR: state,
        OMNIPOS_CONFIG: '',
        OMNIPOS_SANDBOX__PORT: '0',
        OMNIPOS_API__PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('omnipos started')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const started = JSON.parse(out.split('\n').find((l) => l.includes('omnipos started'))!);
    expect(started).toMatchObject({ environment: 'sandbox', stateDir: state });
    expect(statSync(path.join(state, 'omnipos.db')).mode & 0o077).toBe(0);
    expect(statSync(path.join(state, 'api-token')).mode & 0o777).toBe(0o600);
    const token = readFileSync(path.join(state, 'api-token'), 'utf8').trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(out).not.toContain(token);

    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(readFileSync(path.join(state, 'logs', 'omnipos.log'), 'utf8')).toContain('omnipos stopped');
    expect(existsSync(path.join(state, 'omnipos.db'))).toBe(true);
  });
});
