import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../helpers/temp-dir.js';

const tempDir = useTempDirs();

describe('npm start (omnipos demo): the README run command', () => {
  it('is the start script', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('tsx src/cli/bin.ts demo');
    expect(pkg.scripts.sale).toBe('tsx src/cli/bin.ts demo sale');
  });

  it('as a real process: one chip sale with its prompts and masked receipt, then the screens and the API stay up until Ctrl-C (SIGINT), exit 0', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/bin.ts', 'demo', '--state-dir', tempDir(), '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      for (let i = 0; i < 1200 && !/cashier screen +http/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
      expect(out, err).toMatch(/cashier screen +http:\/\/127\.0\.0\.1:\d+\/screens\/cashier\.html#token=\S+/);
      expect(out).toMatch(/the pinpad: the virtual pinpad on tcp:\/\/127\.0\.0\.1:\d+ \(ABECS, secure channel up\)/);
      expect(out).toMatch(/pinpad: .*CART/);
      expect(out).toMatch(/pinpad: DIGITE A SENHA/);
      expect(out).toContain('result: confirmed');
      expect(out).toMatch(/\| CARTÃO +476173\*{6}0060/);
      expect(out).not.toContain('4761730000000060');
      const [, url, token] = /cashier screen +(http:\/\/127\.0\.0\.1:\d+)\/screens\/cashier\.html#token=(\S+)/.exec(
        out,
      )!;
      const health = await fetch(`${url}/v1/health`, {
        headers: { authorization: `Bearer ${decodeURIComponent(token!)}` },
      });
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ pinpad: { connected: true } });
      const screen = await fetch(`${url}/screens/cashier.html`);
      expect(screen.status).toBe(200);
      expect(screen.headers.get('content-type')).toMatch(/^text\/html/);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(out).toContain('SIGINT: stopping');
  }, 90_000);

  it('--once stops after the sale with the sale outcome as exit code (a declined amount: 5)', async () => {
    const { runCli } = await import('../../../src/cli/run.js');
    let out = '';
    const code = await runCli(['demo', '--state-dir', tempDir(), '--port', '0', '--amount', '1011', '--once'], {
      out: (t) => (out += t),
      err: () => undefined,
      env: {},
    });
    expect(out).toContain('result: declined');
    expect(code).toBe(5);
  }, 60_000);
});
