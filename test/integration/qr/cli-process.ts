import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { decodeQrRgba } from '../../helpers/qr-decode.js';

/** `omnipos …` as a real process (tsx), its output collected as it comes. */
export interface CliProcess {
  child: ChildProcess;
  out(): string;
  err(): string;
  /** Resolves with the first match of `re` in standard output (rejects if the process ends first). */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function omnipos(args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
    env: { ...process.env, OMNIPOS_CONFIG: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: { re: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  const check = (): void => {
    for (const w of [...waiters]) {
      const m = out.match(w.re);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
    check();
  });
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    out: () => out,
    err: () => err,
    exit,
    waitFor(re, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const m = out.match(re);
        if (m) return resolve(m);
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${re}; out: ${out}\nerr: ${err}`)),
          timeoutMs,
        );
        waiters.push({ re, resolve: (x) => (clearTimeout(timer), resolve(x)) });
        void exit.then(({ code }) => {
          clearTimeout(timer);
          reject(new Error(`exited ${code} before ${re}; out: ${out}\nerr: ${err}`));
        });
      });
    },
  };
}

/** A loopback port nothing listens on (now). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** `omnipos wallet pay CODE` in its own process, against the sandbox at `walletUrl`, with the first test card. */
export async function walletPay(
  code: string,
  walletUrl: string,
  stateDir: string,
): Promise<{ code: number | null; out: string; err: string }> {
  const card = TEST_CARDS[0]!;
  const p = omnipos(
    [
      'wallet',
      'pay',
      code,
      '--card',
      card.pan,
      '--cvv',
      '123',
      '--exp',
      `${card.expiry.slice(2)}${card.expiry.slice(0, 2)}`,
      '--name',
      'TESTE CARTAO',
      '--document',
      '52998224725',
    ],
    { OMNIPOS_STATE_DIR: stateDir, OMNIPOS_ACQUIRER__WALLET_URL: walletUrl },
  );
  const { code: exit } = await p.exit;
  return { code: exit, out: p.out(), err: p.err() };
}

/**
 * Reads the terminal's text-block QR back into pixels (each character is one module wide and
 * two high: █ both, ▀ top, ▄ bottom) and decodes it with jsQR, an independent decoder.
 */
export function decodeTextBlocks(text: string): string | undefined {
  const lines = text.split('\n').filter((l) => /^[ █▀▄]+$/.test(l) && /[█▀▄]/.test(l));
  if (lines.length === 0) return undefined;
  const scale = 4;
  const width = Math.max(...lines.map((l) => [...l].length)) + 8;
  const height = lines.length * 2 + 8;
  const rgba = new Uint8ClampedArray(width * scale * height * scale * 4).fill(255);
  const ink = (x: number, y: number): void => {
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const i = ((y * scale + dy) * width * scale + x * scale + dx) * 4;
        rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
      }
    }
  };
  lines.forEach((line, row) => {
    [...line].forEach((c, col) => {
      if (c === '█' || c === '▀') ink(col + 4, row * 2 + 4);
      if (c === '█' || c === '▄') ink(col + 4, row * 2 + 5);
    });
  });
  return decodeQrRgba(rgba, width * scale, height * scale);
}
