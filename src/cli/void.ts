import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import QRCode from 'qrcode';
import { Agent, request } from 'undici';
import { loadConfig, type Config } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { ensureSupervisorToken, supervisorPasswordFile, writeSupervisorPassword } from '../operations/index.js';
import { ensureApiToken } from '../store/index.js';
import type { CliContext, Command } from './context.js';

/** The part of a terminal `askHidden` uses (process.stdin, or a test's stand-in). */
export interface HiddenInput {
  readonly isTTY?: boolean;
  setRawMode(mode: boolean): unknown;
  resume(): unknown;
  pause(): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  off(event: 'data', listener: (chunk: Buffer) => void): unknown;
}

/**
 * Reads a line from the terminal without echoing it. Echo goes off before the prompt shows: whoever types on
 * seeing the prompt (a person, or script(1) in a test) must never have the terminal echo it.
 */
export async function askHidden(prompt: string, ctx: CliContext, stdin: HiddenInput = process.stdin): Promise<string> {
  if (!stdin.isTTY)
    throw new OmniposError(
      'INVALID_ARGUMENT',
      'no terminal to ask the supervisor password on: give --supervisor-password-file',
    );
  stdin.setRawMode(true);
  ctx.err(prompt);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (err?: Error): void => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      ctx.err('\n');
      if (err) reject(err);
      else resolve(text);
    };
    const onData = (chunk: Buffer): void => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new OmniposError('ENGINE_CANCELLED', 'cancelled'));
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
        else text += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** Why `file` could not be read, in words (the system's code kept: ENOENT, EACCES, EISDIR). */
function unreadable(e: unknown): string {
  const code = e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
  if (code === 'ENOENT') return 'no such file (ENOENT)';
  if (code === 'EACCES') return 'not readable by this user (EACCES)';
  if (code === 'EISDIR') return 'a directory, not a file (EISDIR)';
  return code ?? (e instanceof Error ? e.message : String(e));
}

/** The supervisor password held in `file` (one line); a file that cannot be read is a usage error naming it. */
export function readPasswordFile(file: string): string {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (e) {
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `--supervisor-password-file ${file}: ${unreadable(e)}: give a file holding the supervisor password`,
      { file },
    );
  }
  const text = raw.replace(/\r?\n$/, '');
  if (text === '')
    throw new OmniposError('INVALID_ARGUMENT', `${file}: the supervisor password file is empty`, { file });
  return text;
}

function apiUrl(config: Config): string {
  const host = ['0.0.0.0', '::'].includes(config.values.api.host) ? '127.0.0.1' : config.values.api.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.values.api.port}`;
}

async function call(
  dispatcher: Agent,
  url: string,
  token: string,
  method: 'GET' | 'POST',
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(url, {
    method,
    dispatcher,
    headers: {
      authorization: `Bearer ${token}`,
      ...headers,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    headersTimeout: 30_000,
  });
  const text = await res.body.text();
  try {
    return { status: res.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    return { status: res.statusCode, body: { error: { code: 'NOT_JSON', message: text.slice(0, 200) } } };
  }
}

const FINAL = new Set(['approved', 'declined', 'refused', 'cancelled', 'undone', 'failed', 'expired']);

export const voidCommand: Command = {
  path: ['void'],
  summary: 'void a confirmed sale, with a supervisor: a card sale (same card) or a wallet QR sale (cancellation code)',
  usage: `omnipos void ID [--amount CENTS] [--supervisor-password-file FILE] [--timeout SECONDS] [--config PATH]

Asks the running daemon to void payment ID (a confirmed card sale): all that remains of it, or
--amount cents of it (a partial void). The supervisor password is asked on the terminal (not
echoed) unless --supervisor-password-file names a file holding it. The customer then presents
the sale's card on the pinpad; another card is refused before anything is sent. A wallet QR sale
is voided by a cancellation code, printed here (text and QR) and shown on the pinpad, that the
customer pays with the wallet. Prints each step and exits 0 when the void is approved, 1 when it
ended otherwise (declined, refused, undone, expired…).

Examples:
  omnipos void 42
  omnipos void 42 --amount 400 --supervisor-password-file /run/omnipos/supervisor`,
  async run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        config: { type: 'string' },
        amount: { type: 'string' },
        'supervisor-password-file': { type: 'string' },
        timeout: { type: 'string', default: '180' },
      },
      allowPositionals: true,
      strict: true,
    });
    const id = positionals[0];
    if (!id || !/^\d{1,12}$/.test(id) || positionals.length > 1) {
      ctx.err('omnipos void: give the payment id (digits), e.g. `omnipos void 42`\n');
      return 2;
    }
    const amount = values.amount === undefined ? undefined : Number(values.amount);
    if (amount !== undefined && (!Number.isSafeInteger(amount) || amount <= 0)) {
      ctx.err('omnipos void: --amount must be a whole number of cents\n');
      return 2;
    }
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const password = values['supervisor-password-file']
      ? readPasswordFile(values['supervisor-password-file'])
      : await askHidden('supervisor password: ', ctx);
    const base = apiUrl(config);
    const { token } = ensureApiToken(config.values.stateDir);
    const dispatcher = new Agent({ connect: { timeout: 2_000 } });
    try {
      let r;
      try {
        r = await call(
          dispatcher,
          `${base}/v1/payments/${id}/void`,
          token,
          'POST',
          { 'x-supervisor-password': password },
          amount !== undefined ? { amount } : {},
        );
      } catch (e) {
        throw new OmniposError(
          'OPERATIONS_DAEMON_UNREACHABLE',
          `no omnipos daemon answers at ${base} (${(e as Error).message}); start it with \`omnipos start\``,
          { url: base },
        );
      }
      if (r.status !== 202) {
        const err = (r.body.error ?? {}) as { code?: string; message?: string };
        ctx.err(`omnipos void: ${err.code ?? r.status}: ${err.message ?? 'refused'}\n`);
        return r.status === 403 || r.status === 409 || r.status === 422 ? 4 : 1;
      }
      let v = r.body;
      const voidId = String(v.id);
      const code = (v.cancellationCode as { qrCode?: string; expiresAt?: string } | undefined) ?? undefined;
      if (code?.qrCode) {
        ctx.out(
          `void ${voidId} (MerchantVoidId ${String(v.merchantVoidId)}) of payment ${id}: ${String(v.amount)} cents; the customer pays this cancellation code with the wallet (until ${code.expiresAt ?? '?'}):\n${code.qrCode}\n`,
        );
        ctx.out(await QRCode.toString(code.qrCode, { type: 'terminal', small: true, errorCorrectionLevel: 'M' }));
      } else
        ctx.out(
          `void ${voidId} (MerchantVoidId ${String(v.merchantVoidId)}) of payment ${id}: ${String(v.amount)} cents; present the sale's card on the pinpad\n`,
        );
      let last = '';
      const until = Date.now() + Number(values.timeout) * 1000;
      for (;;) {
        const line = `${String(v.state)} (${String(v.status)})${typeof v.reason === 'string' ? `: ${v.reason}` : ''}`;
        if (line !== last) ctx.out(`• ${line}\n`);
        last = line;
        if (FINAL.has(String(v.status))) break;
        if (Date.now() > until) {
          ctx.err(
            `omnipos void: still ${String(v.state)} after ${values.timeout} s; read it with GET /v1/voids/${voidId}\n`,
          );
          return 1;
        }
        await new Promise((res) => setTimeout(res, 300));
        v = (await call(dispatcher, `${base}/v1/voids/${voidId}`, token, 'GET')).body;
      }
      const payment = v.payment as { remaining?: number } | undefined;
      ctx.out(
        `${v.status === 'approved' ? 'VOID APPROVED' : `VOID ${String(v.status).toUpperCase()}`}; the sale has ${String(payment?.remaining ?? '?')} cents left to void\n`,
      );
      return v.status === 'approved' ? 0 : 1;
    } finally {
      await dispatcher.close();
    }
  },
};

export const supervisorPassword: Command = {
  path: ['supervisor', 'password'],
  summary: "set this terminal's supervisor password (stored as a salted scrypt hash)",
  usage: `omnipos supervisor password [--from-file FILE] [--config PATH]

Asks the new password twice on the terminal (not echoed), or reads it from FILE, and writes its
salted scrypt hash to supervisor.passwordFile (default <stateDir>/supervisor-password, mode 0600).
The password itself is never written. A supervisor authorizes every void with it.

Example:
  omnipos supervisor password`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { config: { type: 'string' }, 'from-file': { type: 'string' } },
      strict: true,
    });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    let password: string;
    if (values['from-file']) password = readPasswordFile(values['from-file']);
    else {
      password = await askHidden('new supervisor password: ', ctx);
      if ((await askHidden('again: ', ctx)) !== password) {
        ctx.err('omnipos supervisor password: the two do not match; nothing changed\n');
        return 2;
      }
    }
    const file = supervisorPasswordFile(config);
    writeSupervisorPassword(file, password);
    ctx.out(`supervisor password set (scrypt hash in ${file})\n`);
    return 0;
  },
};

export const supervisorToken: Command = {
  path: ['supervisor', 'token'],
  summary: "print the API's supervisor token (distinct from the cash register's)",
  usage: `omnipos supervisor token [--config PATH]

Prints the token a supervisor's screen sends as "X-Supervisor-Token: <token>" to authorize a void
(POST /v1/payments/{id}/void). It lives in <stateDir>/supervisor-token (mode 0600), is created if
missing, and is never the cash register's api-token. Hand it to the supervisor only.

Example:
  omnipos supervisor token`,
  run(args, ctx) {
    const { values } = parseArgs({ args, options: { config: { type: 'string' } }, strict: true });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    ctx.out(`${ensureSupervisorToken(config.values.stateDir).token}\n`);
    return Promise.resolve(0);
  },
};
