import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OmniposError } from '../core/index.js';
import type { Command } from './context.js';

/** Chromium's switches for an unattended screen: full screen, no bars, no first-run, no translation prompt, no crash bubble. */
export const KIOSK_FLAGS = [
  '--kiosk',
  // Wayland under cage (the unit's compositor), X11 elsewhere.
  '--ozone-platform-hint=auto',
  '--noerrdialogs',
  '--disable-infobars',
  '--no-first-run',
  '--disable-translate',
  '--disable-features=Translate',
  '--disable-session-crashed-bubble',
  '--disable-pinch',
  '--overscroll-history-navigation=0',
  '--check-for-update-interval=31536000',
] as const;

/** Polls `GET {api}/v1/health` with the token until it answers 200, or throws after `seconds`. */
export async function waitForHealth(
  api: string,
  token: string,
  seconds: number,
  say: (t: string) => void,
): Promise<void> {
  const until = Date.now() + seconds * 1000;
  let last = '';
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`${api}/v1/health`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(2000),
      });
      await res.text();
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
      if (res.status === 401)
        throw new OmniposError(
          'ENVIRONMENT_REFUSED',
          `the daemon at ${api} refused the token: is it another state directory's?`,
          { api },
        );
    } catch (e) {
      if (e instanceof OmniposError) throw e;
      last = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    }
    if (Date.now() >= until)
      throw new OmniposError(
        'OPERATIONS_DAEMON_UNREACHABLE',
        `the daemon's API at ${api} did not answer within ${seconds} s (${last})`,
        { api },
      );
    if (i % 10 === 0) say(`waiting for the daemon's API at ${api} (${last})`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The page the browser opens first: a local file (mode 0600, in the unit's private runtime
 * directory) that moves to the screen with the token in the URL fragment, so the token is never
 * on a command line (`ps` shows every process's arguments to every user).
 */
export function startPage(dir: string, url: string): string {
  const file = path.join(dir, 'start.html');
  const html = `<!doctype html><meta charset="utf-8"><title>omnipos</title><script>location.replace(${JSON.stringify(url)});</script>\n`;
  writeFileSync(file, html, { mode: 0o600 });
  return file;
}

export const kiosk: Command = {
  path: ['kiosk'],
  summary: "open the screens in a full-screen browser once the daemon's API answers (omnipos-kiosk.service)",
  usage: `omnipos kiosk [--screen kiosk|cashier|supervisor] [--api URL] [--token-file PATH] [--browser PATH] [--wait-seconds N]

What systemd/omnipos-kiosk.service runs (inside the cage compositor): waits until the daemon's
GET /v1/health answers with the token, then starts the browser (default /usr/bin/chromium) full
screen on {api}/screens/<screen>.html with the token in the URL fragment, through a start page in
the unit's private runtime directory, so the token never appears on a command line. The token
comes from the unit's credential (LoadCredential=<screen>-token:…, api-token for the supervisor's screen, read from $CREDENTIALS_DIRECTORY)
or --token-file; the kiosk's user needs no access to the daemon's files. Exits with the
browser's exit code (the unit restarts it).

Example:
  omnipos kiosk --screen cashier --token-file /var/lib/omnipos/cashier-token --browser /usr/bin/chromium

Exit codes: the browser's; 3 the daemon did not answer in time; 2 no token.`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        screen: { type: 'string', default: 'kiosk' },
        api: { type: 'string', default: 'http://127.0.0.1:7878' },
        'token-file': { type: 'string' },
        browser: { type: 'string', default: '/usr/bin/chromium' },
        'wait-seconds': { type: 'string', default: '120' },
      },
      strict: true,
    });
    if (!['kiosk', 'cashier', 'supervisor'].includes(values.screen))
      throw new OmniposError('INVALID_ARGUMENT', '--screen: kiosk, cashier or supervisor', { option: '--screen' });
    const seconds = Number(values['wait-seconds']);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600)
      throw new OmniposError('INVALID_ARGUMENT', '--wait-seconds: 1 to 3600', { option: '--wait-seconds' });
    const api = values.api.replace(/\/+$/, '');
    // Each sales screen holds its own token (its own sales only); the supervisor's screen the register's.
    const credential = values.screen === 'supervisor' ? 'api-token' : `${values.screen}-token`;
    const tokenFile =
      values['token-file'] ??
      (ctx.env.CREDENTIALS_DIRECTORY ? path.join(ctx.env.CREDENTIALS_DIRECTORY, credential) : undefined);
    if (!tokenFile)
      throw new OmniposError(
        'INVALID_ARGUMENT',
        `no token: give --token-file, or run under the unit (LoadCredential=${credential})`,
        { option: '--token-file' },
      );
    let token: string;
    try {
      token = readFileSync(tokenFile, 'utf8').trim();
    } catch (e) {
      throw new OmniposError(
        'INVALID_ARGUMENT',
        `--token-file: cannot read ${tokenFile} (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
        { option: '--token-file' },
      );
    }
    await waitForHealth(api, token, seconds, (t) => ctx.err(`omnipos kiosk: ${t}\n`));
    const dir = ctx.env.RUNTIME_DIRECTORY?.split(':')[0] ?? mkdtempSync(path.join(tmpdir(), 'omnipos-kiosk-'));
    const page = startPage(dir, `${api}/screens/${values.screen}.html#token=${encodeURIComponent(token)}`);
    const profile = path.join(dir, 'profile');
    ctx.out(`omnipos kiosk: ${api}/screens/${values.screen}.html in ${values.browser}\n`);
    const child = spawn(values.browser, [...KIOSK_FLAGS, `--user-data-dir=${profile}`, `file://${page}`], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const stop = (): void => void child.kill('SIGTERM');
    process.once('SIGTERM', stop);
    try {
      return await new Promise<number>((resolve, reject) => {
        child.once('error', (e) =>
          reject(
            new OmniposError(
              'INVALID_ARGUMENT',
              `--browser: cannot start ${values.browser} (${(e as NodeJS.ErrnoException).code ?? e.message})`,
              { option: '--browser' },
            ),
          ),
        );
        child.once('exit', (code, signal) => resolve(code ?? (signal ? 0 : 1)));
      });
    } finally {
      process.off('SIGTERM', stop);
    }
  },
};
