import { spawn } from 'node:child_process';
import path from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { sandboxCredentialsCommand, sandboxRun } from '../../../src/cli/sandbox.js';
import { runCli } from '../../../src/cli/run.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { omniposArgs } from '../../helpers/omnipos-process.js';

function ctx(): { out: string[]; err: string[]; c: Parameters<typeof runCli>[1] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, c: { out: (t) => out.push(t), err: (t) => err.push(t), env: {} } };
}

describe('omnipos sandbox', () => {
  const tempDir = useTempDirs();
  it('credentials --json prints the credentials, the 16-digit merchant and the 8-digit terminal', async () => {
    const x = ctx();
    expect(await runCli(['sandbox', 'credentials', '--json'], x.c, [sandboxRun, sandboxCredentialsCommand])).toBe(0);
    const j = JSON.parse(x.out.join('')) as Record<string, Record<string, string>>;
    expect(j.omni?.clientId).toBe('omnipos-sandbox-client');
    expect(j.ecommerce?.merchantKey).toBeTruthy();
    expect(j.merchant?.merchantNumber).toMatch(/^\d{16}$/);
    expect(j.merchant?.mcc).toMatch(/^\d{4}$/);
    expect(j.terminal?.terminalId).toMatch(/^\d{8}$/);
    // every address, one per base of the acquirer, as the default configuration names them
    expect(Object.keys(j.addresses ?? {}).sort()).toEqual(
      [
        'authorization',
        'controls',
        'ecommerceQueries',
        'ecommerceRequests',
        'parameters',
        'queries',
        'registration',
        'requests',
        'wallet',
      ].sort(),
    );
    expect(new Set(Object.values(j.addresses ?? {}).map((u) => new URL(u).port)).size).toBe(9);
    expect(j.addresses?.parameters).toMatch(/\/api\/v0\.1$/);
  });

  it('runs as a process on the given port and stops on SIGTERM', async () => {
    const dir = tempDir('omnipos-cli-sandbox-');
    const child = spawn(
      process.execPath,
      omniposArgs([
        'sandbox',
        '--port',
        '0',
        '--db',
        path.join(dir, 'a.db'),
        '--faults',
        '{"route":"saleGet","status":503,"times":2}',
      ]),
      {
        cwd: process.cwd(),
        env: { ...process.env, OMNIPOS_LOG__LEVEL: 'silent', OMNIPOS_STATE_DIR: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (b: Buffer) => {
          text += b.toString();
          const m = /listening on (http:\/\/\S+)/.exec(text);
          if (m) resolve(m[1] as string);
        });
        child.once('exit', (code) => reject(new Error(`exited ${String(code)}`)));
        setTimeout(() => reject(new Error('no start within 15 s')), 15_000);
      });
      const r = await request(`${url}/sandbox/health`);
      expect(r.statusCode).toBe(200);
      await r.body.dump();
      const f = await request(`${url}/sandbox/faults`);
      expect(await f.body.json()).toEqual({ saleGet: { status: 503, times: 2 } });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
