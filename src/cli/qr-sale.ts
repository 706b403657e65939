import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { loadConfig, type Config } from '../config/index.js';
import { formatBRL, OmniposError } from '../core/index.js';
import { createLogger } from '../core/log/index.js';
import { startDaemon, type Daemon } from '../main.js';
import { renderQrText } from '../qr/index.js';
import { ensureApiToken } from '../store/index.js';
import type { CliContext, Command } from './context.js';

/**
 * Exit codes of `omnipos qr sale` and `omnipos pix sale` (also in their usage texts and
 * docs/operations.md): what became of the payment, so a script can branch on it.
 */
export const SALE_EXIT = {
  /** Paid and confirmed: final. */
  confirmed: 0,
  /** A bug or an answer this command does not understand. */
  unexpected: 1,
  /** Bad arguments or configuration. */
  usage: 2,
  /** The daemon, the acquirer or a device could not be reached. */
  unavailable: 3,
  /** Refused: the terminal is busy, not initialized, or the method is not available. */
  refused: 4,
  /** The code expired unpaid. */
  expired: 5,
  /** Cancelled: Ctrl-C here, or the cash register or an operator. */
  cancelled: 6,
  /** Paid, but not kept: undone or refunded (e.g. the receipt did not come out), or it needs a refund. */
  notKept: 7,
  /** The code could not be created (the host refused it, or its answer never came). */
  failed: 8,
} as const;

export const EXIT_CODES_TEXT = `Exit codes: 0 paid and confirmed; 2 bad arguments or configuration; 3 the daemon or the
acquirer is unreachable; 4 refused (busy, not initialized, not available); 5 the code expired
unpaid; 6 cancelled (Ctrl-C, the cash register or an operator); 7 paid but not kept (undone or
refunded, e.g. the receipt did not come out); 8 the code could not be created; 1 unexpected.`;

/** The payment as GET /v1/payments/{id} shows it (the fields this command reads). */
interface PaymentView {
  id: number;
  merchantOrderId: string;
  status: string;
  state: string;
  qrCode?: string;
  expiresAt?: string;
  paymentId?: string;
  reason?: string;
  /** A Pix whose code expired unpaid. */
  expired?: boolean;
}

/** The payment view in an API answer, its fields checked (a daemon of another version may answer otherwise). */
function paymentView(body: Record<string, unknown>, request: string): PaymentView {
  const { id, merchantOrderId, status, state } = body;
  if (
    typeof id !== 'number' ||
    typeof merchantOrderId !== 'string' ||
    typeof status !== 'string' ||
    typeof state !== 'string'
  )
    throw new OmniposError('INTERNAL', `${request}: the answer is not a payment (id, merchantOrderId, status, state)`);
  const text = (key: 'qrCode' | 'expiresAt' | 'paymentId' | 'reason'): { [k in typeof key]?: string } => {
    const v = body[key];
    return typeof v === 'string' ? { [key]: v } : {};
  };
  return {
    id,
    merchantOrderId,
    status,
    state,
    ...text('qrCode'),
    ...text('expiresAt'),
    ...text('paymentId'),
    ...text('reason'),
    ...(body.expired === true ? { expired: true } : {}),
  };
}

/** The local API of a running daemon, or of one this command started. */
interface Terminal {
  url: string;
  token: string;
  /** Set when this process started the daemon (no daemon answered). */
  daemon?: Daemon;
  dispatcher: Agent;
}

async function call(
  t: Terminal,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(`${t.url}${path}`, {
    method,
    dispatcher: t.dispatcher,
    headers: {
      authorization: `Bearer ${t.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  });
  const text = await res.body.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { message: text.slice(0, 200) };
  }
  return { status: res.statusCode, body: parsed };
}

/**
 * The running daemon's API (its address from the configuration, its token from the state
 * directory); when nothing answers there, a daemon started in this process on the configured
 * default (embedded sandbox, virtual devices), its API on a free loopback port.
 */
async function connect(config: Config, ctx: CliContext): Promise<Terminal> {
  const dispatcher = new Agent({ keepAliveTimeout: 5_000, connect: { timeout: 2_000 } });
  const { token, file } = ensureApiToken(config.values.stateDir);
  const host = ['0.0.0.0', '::'].includes(config.values.api.host) ? '127.0.0.1' : config.values.api.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.values.api.port}`;
  if (config.values.api.port !== 0) {
    try {
      const health = await call({ url, token, dispatcher }, 'GET', '/v1/health');
      if (health.status === 401)
        throw new OmniposError(
          'ENVIRONMENT_REFUSED',
          `the daemon at ${url} refused the token in ${file}: is it another state directory's daemon?`,
          { url },
        );
      ctx.out(`• omnipos daemon at ${url}\n`);
      return { url, token, dispatcher };
    } catch (e) {
      if (e instanceof OmniposError) throw e;
      // Nothing listens there: start one here.
    }
  }
  const log = createLogger({ level: 'error', destination: process.stderr });
  let daemon: Daemon;
  try {
    daemon = await startDaemon({ config, log, env: {}, apiPort: 0 });
  } catch (e) {
    const why = `no daemon answered at ${url}, and none could start here: ${(e as Error).message}`;
    // A start that failed keeps its own code (a port taken, the state directory held: exit 3); the message says both.
    if (e instanceof OmniposError) throw new OmniposError(e.code, why, { ...e.context, url });
    throw new OmniposError('OPERATIONS_DAEMON_UNREACHABLE', why, { url });
  }
  if (!daemon.apiUrl) throw new OmniposError('INTERNAL', 'the daemon started without its API');
  ctx.out(
    `• no daemon answered at ${url}: started one in this process (state in ${config.values.stateDir}${daemon.sandbox ? `, sandbox host at ${daemon.sandbox.url}, its wallet API at ${daemon.sandbox.urls.wallet}` : ''})\n`,
  );
  return { url: daemon.apiUrl, token, daemon, dispatcher };
}

const FAILED_STATES = new Set(['failed', 'dead-letter']);
const NOT_KEPT_STATES = new Set(['undoing', 'undone', 'refunding', 'refunded', 'needs-refund']);

/** The exit code a payment's state means, or undefined while it is not settled. */
function outcome(p: PaymentView): number | undefined {
  if (p.state === 'confirmed') return SALE_EXIT.confirmed;
  if (p.state === 'expiring' || p.state === 'expired') return SALE_EXIT.expired;
  if (p.state === 'cancelling' || p.state === 'cancelled') return p.expired ? SALE_EXIT.expired : SALE_EXIT.cancelled;
  if (NOT_KEPT_STATES.has(p.state)) return SALE_EXIT.notKept;
  if (FAILED_STATES.has(p.state)) return SALE_EXIT.failed;
  return undefined;
}

const REFUSALS: Record<number, number> = {
  400: SALE_EXIT.usage,
  401: SALE_EXIT.usage,
  409: SALE_EXIT.refused,
  422: SALE_EXIT.usage,
};

function remaining(expiresAt: string | undefined, now: number): string {
  const s = Math.max(0, Math.round((Date.parse(expiresAt ?? '') - now) / 1000));
  return Number.isFinite(s) ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')} left` : '';
}

/**
 * Starts a wallet QR or Pix payment on the terminal, shows its code, waits until it is settled
 * and says how it ended (see SALE_EXIT). Ctrl-C cancels the payment.
 */
export async function runQrPayment(
  ctx: CliContext,
  config: Config,
  body: Record<string, unknown>,
  label: string,
): Promise<number> {
  const terminal = await connect(config, ctx);
  const pollMs = 250;
  const tty = process.stdout.isTTY === true;
  let cancelAsked = false;
  let id: number | undefined;
  const onInterrupt = (): void => {
    cancelAsked = true;
    if (id !== undefined) ctx.out('\n• Ctrl-C: cancelling the payment\n');
  };
  process.on('SIGINT', onInterrupt);
  try {
    const created = await call(terminal, 'POST', '/v1/payments', body);
    if (created.status !== 202 && created.status !== 200) {
      ctx.err(`omnipos: the terminal refused the payment: HTTP ${created.status} ${JSON.stringify(created.body)}\n`);
      return REFUSALS[created.status] ?? SALE_EXIT.unavailable;
    }
    let p = paymentView(created.body, 'POST /v1/payments');
    id = p.id;
    ctx.out(`• ${label} ${p.id} of ${formatBRL(body.amount as number)} (MerchantOrderId ${p.merchantOrderId})\n`);
    let shown = false;
    let lastState = '';
    let lastProgress = 0;
    for (;;) {
      if (cancelAsked && outcome(p) === undefined) {
        const r = await call(terminal, 'POST', `/v1/payments/${p.id}/cancel`);
        if (r.status === 200) p = paymentView(r.body, `POST /v1/payments/${p.id}/cancel`);
        cancelAsked = false;
      }
      if (p.state !== lastState) {
        if (lastState !== '') ctx.out(`${tty ? '\r\x1b[K' : ''}• ${p.state}${p.reason ? ` (${p.reason})` : ''}\n`);
        lastState = p.state;
      }
      if (!shown && p.qrCode) {
        shown = true;
        ctx.out(`\n${renderQrText(p.qrCode)}\n`);
        ctx.out(`copy-and-paste code: ${p.qrCode}\n`);
        if (p.paymentId) ctx.out(`• PaymentId ${p.paymentId}\n`);
        ctx.out(`• valid until ${p.expiresAt ?? '?'}; waiting for the payment (Ctrl-C cancels)\n`);
      }
      const result = outcome(p);
      if (result !== undefined) {
        ctx.out(
          `${tty ? '\r\x1b[K' : ''}result: ${p.state} (${p.status}), MerchantOrderId ${p.merchantOrderId}${p.paymentId ? `, PaymentId ${p.paymentId}` : ''}\n`,
        );
        if (result !== SALE_EXIT.confirmed)
          ctx.err(`omnipos: the payment ended ${p.state}${p.reason ? `: ${p.reason}` : ''}\n`);
        if (terminal.daemon && (result === SALE_EXIT.cancelled || result === SALE_EXIT.expired)) {
          ctx.out(
            '• a payment that still arrives is undone (or refunded) by the terminal: the next omnipos start keeps watching\n',
          );
        }
        return result;
      }
      const now = Date.now();
      if (p.state === 'showing' && (tty || now - lastProgress >= 10_000)) {
        lastProgress = now;
        ctx.out(
          tty
            ? `\r\x1b[K… waiting for the payment, ${remaining(p.expiresAt, now)}`
            : `… waiting for the payment, ${remaining(p.expiresAt, now)}\n`,
        );
      }
      await new Promise((r) => setTimeout(r, pollMs));
      const got = await call(terminal, 'GET', `/v1/payments/${p.id}`);
      if (got.status !== 200) throw new OmniposError('INTERNAL', `GET /v1/payments/${p.id}: HTTP ${got.status}`);
      p = paymentView(got.body, `GET /v1/payments/${p.id}`);
    }
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('UND_ERR') || (e as { code?: string }).code === 'ECONNREFUSED') {
      throw new OmniposError(
        'OPERATIONS_DAEMON_UNREACHABLE',
        `the terminal's API stopped answering: ${(e as Error).message}`,
      );
    }
    throw e;
  } finally {
    process.off('SIGINT', onInterrupt);
    await terminal.dispatcher.close().catch(() => undefined);
    await terminal.daemon?.stop();
  }
}

function cents(text: string | undefined, flag: string): number {
  const n = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || !Number.isSafeInteger(n) || n <= 0)
    throw new OmniposError('INVALID_ARGUMENT', `${flag}: expected a whole number of cents above 0`, { found: text });
  return n;
}

export const qrSale: Command = {
  path: ['qr', 'sale'],
  summary: 'sell with a wallet QR code: show it, wait until it is paid and confirmed',
  usage: `omnipos qr sale --amount CENTS [--installments N] [--modality credit|debit] [--config PATH]

Starts a wallet QR sale on the running daemon (its API address from the configuration, its
token from <stateDir>/api-token), or, when no daemon answers, on one started in this process
on the configured default (embedded sandbox host, virtual pinpad and printer). Shows the code as
text blocks and prints its copy-and-paste string, then waits (a progress line) until the
payment is settled; the receipt is printed and the sale confirmed by the terminal. Ctrl-C
cancels the sale (a payment that still arrives is undone by the terminal).

${EXIT_CODES_TEXT}

Example:
  omnipos qr sale --amount 2610 --modality credit`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        amount: { type: 'string' },
        installments: { type: 'string', default: '1' },
        modality: { type: 'string', default: 'credit' },
        config: { type: 'string' },
      },
      strict: true,
    });
    const amount = cents(values.amount, '--amount');
    const installments = Number(values.installments);
    if (!/^\d{1,2}$/.test(values.installments) || installments < 1)
      throw new OmniposError('INVALID_ARGUMENT', '--installments: expected 1 to 99', { found: values.installments });
    if (values.modality !== 'credit' && values.modality !== 'debit')
      throw new OmniposError('INVALID_ARGUMENT', '--modality: credit or debit', { found: values.modality });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    return runQrPayment(
      ctx,
      config,
      { amount, method: 'wallet-qr', qrModality: values.modality, installments, confirmation: 'auto' },
      'wallet QR sale',
    );
  },
};

export { cents as parseCents };
