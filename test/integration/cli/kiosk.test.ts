import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from '../../helpers/daemon.js';
import { runCliCaptured as cli } from '../../helpers/cli.js';
import { tempDirForFile, useTempDirs } from '../../helpers/temp-dir.js';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
const dir = tempDirForFile('omnipos-kiosk-test-');
beforeAll(async () => {
  t = await startTestDaemon();
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

/** A stand-in browser: records its arguments and the page it was asked to open, exits 7. */
function fakeBrowser(): { exe: string; argsFile: string } {
  const exe = path.join(dir, 'browser.sh');
  const argsFile = path.join(dir, 'browser-args');
  writeFileSync(exe, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\nexit 7\n`);
  chmodSync(exe, 0o755);
  return { exe, argsFile };
}

describe('omnipos kiosk (what omnipos-kiosk.service runs)', () => {
  const tempDir = useTempDirs();
  it('waits for the health, then opens the screen full screen through a private start page: the token is in the page, never in the arguments', async () => {
    const runtime = tempDir('omnipos-kiosk-run-');
    const creds = tempDir('omnipos-kiosk-cred-');
    // The cashier screen's own token (its own sales only), as the unit hands it over.
    const token = readFileSync(path.join(t.stateDir, 'cashier-token'), 'utf8').trim();
    writeFileSync(path.join(creds, 'cashier-token'), `${token}\n`);
    const browser = fakeBrowser();
    const r = await cli(['kiosk', '--screen', 'cashier', '--api', t.apiUrl, '--browser', browser.exe], {
      CREDENTIALS_DIRECTORY: creds,
      RUNTIME_DIRECTORY: runtime,
    });
    expect(r.err).toBe('');
    expect(r.code).toBe(7);
    const args = readFileSync(browser.argsFile, 'utf8').trim().split('\n');
    expect(args).toEqual(
      expect.arrayContaining([
        '--kiosk',
        '--no-first-run',
        `--user-data-dir=${path.join(runtime, 'profile')}`,
        `file://${path.join(runtime, 'start.html')}`,
      ]),
    );
    expect(args.join(' ')).not.toContain(token);
    const page = readFileSync(path.join(runtime, 'start.html'), 'utf8');
    expect(page).toContain(`location.replace("${t.apiUrl}/screens/cashier.html#token=${encodeURIComponent(token)}")`);
    const { statSync } = await import('node:fs');
    expect(statSync(path.join(runtime, 'start.html')).mode & 0o777).toBe(0o600);
  });

  it('gives up with exit 3 when no daemon answers in time, and refuses a wrong token with exit 4', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const tokenFile = path.join(dir, 'token');
    writeFileSync(tokenFile, t.token);
    const down = await cli(
      [
        'kiosk',
        '--api',
        `http://127.0.0.1:${port}`,
        '--token-file',
        tokenFile,
        '--wait-seconds',
        '1',
        '--browser',
        '/bin/false',
      ],
      {},
    );
    expect(down.code).toBe(3);
    expect(down.err).toMatch(/did not answer within 1 s/);
    writeFileSync(tokenFile, 'not-the-token');
    const wrong = await cli(['kiosk', '--api', t.apiUrl, '--token-file', tokenFile, '--browser', '/bin/false'], {});
    expect(wrong.code).toBe(4);
    expect((await cli(['kiosk', '--api', t.apiUrl], {})).code).toBe(2);
  });
});
