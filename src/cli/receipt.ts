import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { loadConfig } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { RECEIPT_STATES } from '../receipt/index.js';
import type { CliContext, Command } from './context.js';
import { callApi, daemonApi, requireDaemon, text, type DaemonApi } from './daemon-api.js';

/** Exit codes of `omnipos receipt reprint`: 0 printed; 3 the daemon is unreachable; 4 no such receipt; 5 the printer did not print it (or cannot say). */
const REPRINT_EXIT = { printed: 0, notPrinted: 5 } as const;

function configOf(args: { config?: string | undefined }, ctx: CliContext) {
  return loadConfig({ ...(args.config ? { path: args.config } : {}), env: ctx.env });
}

/** An API refusal as a typed error: its code from the catalogue when it is one, its message as the daemon said it. */
function refused(r: { status: number; body: Record<string, unknown> }): OmniposError {
  const e = (r.body.error ?? {}) as { code?: unknown; message?: unknown };
  const message = text(e.message, `HTTP ${r.status}`);
  if (e.code === 'RECEIPT_NOT_AVAILABLE' || r.status === 409)
    return new OmniposError('RECEIPT_NOT_AVAILABLE', message, { status: r.status });
  if (r.status === 404) return new OmniposError('ENGINE_NOT_FOUND', message, { status: r.status });
  if (r.status === 400) return new OmniposError('INVALID_ARGUMENT', message, { status: r.status });
  return new OmniposError('INTERNAL', `the daemon answered HTTP ${r.status}: ${message}`, { status: r.status });
}

function paymentId(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,12}$/.test(raw))
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `ID: expected the payment's number (as POST /v1/payments returned it), got "${raw}"`,
      { id: raw },
    );
  return raw;
}

/** The newest payment that has a receipt. */
async function lastWithReceipt(api: DaemonApi): Promise<string> {
  const r = await callApi(api, 'GET', '/v1/payments');
  if (r.status !== 200) throw refused(r);
  const last = ((r.body.payments ?? []) as { id: number; state: string }[]).find((p) =>
    RECEIPT_STATES.includes(p.state),
  );
  if (!last) throw new OmniposError('RECEIPT_NOT_AVAILABLE', 'no payment with a receipt yet', {});
  return String(last.id);
}

export const receiptReprint: Command = {
  path: ['receipt', 'reprint'],
  summary: 'reprint a receipt of today, marked SEGUNDA VIA (no ID: the last sale)',
  usage: `omnipos receipt reprint [ID] [--copy customer|merchant] [--config PATH]

Asks the running daemon (its API address from the configuration, the token from
<stateDir>/api-token) to print a receipt again, rebuilt from the journal and marked
"SEGUNDA VIA (2a VIA)". Without ID, the newest payment that has a receipt. Only receipts of
today are reprinted.

Exit codes: 0 printed (the printer's word after the cut); 2 bad arguments; 3 no daemon answers;
4 no such payment, or it has no receipt of today; 5 the printer did not print it or cannot say.

Example:
  omnipos receipt reprint          # the last payment's customer copy`,
  async run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: { config: { type: 'string' }, copy: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 1) throw new OmniposError('INVALID_ARGUMENT', `one ID at most, got ${positionals.length}`);
    if (values.copy !== undefined && values.copy !== 'customer' && values.copy !== 'merchant')
      throw new OmniposError('INVALID_ARGUMENT', '--copy: customer or merchant');
    const api = daemonApi(configOf(values, ctx));
    try {
      await requireDaemon(api);
      const id = paymentId(positionals[0]) ?? (await lastWithReceipt(api));
      const r = await callApi(
        api,
        'POST',
        `/v1/payments/${id}/receipt/print`,
        values.copy ? { copy: values.copy } : {},
      );
      if (r.status !== 200) throw refused(r);
      const result = text(r.body.result);
      ctx.out(
        `payment ${id} (order ${text(r.body.merchantOrderId)}): ${text(r.body.copy)} copy ${result === 'printed' ? 'reprinted' : `not printed (${result})`}\n`,
      );
      return result === 'printed' ? REPRINT_EXIT.printed : REPRINT_EXIT.notPrinted;
    } finally {
      await api.close();
    }
  },
};

export const receiptShow: Command = {
  path: ['receipt', 'show'],
  summary: "show a payment's receipt as text (or HTML, or a PNG to a file)",
  usage: `omnipos receipt show ID [--format text|html|png] [--copy customer|merchant] [--columns 32|42|48] [--out FILE] [--config PATH]

Prints the receipt of payment ID as the running daemon rebuilds it from the journal: text (the
default) or HTML on standard output; a PNG (as the virtual printer draws the ESC/POS bytes) only
into --out FILE.

Exit codes: 0 shown; 2 bad arguments; 3 no daemon answers; 4 no such payment, or no receipt.

Example:
  omnipos receipt show 7 --format png --out receipt.png`,
  async run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        config: { type: 'string' },
        format: { type: 'string', default: 'text' },
        copy: { type: 'string' },
        columns: { type: 'string' },
        out: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    const id = paymentId(positionals[0]);
    if (!id || positionals.length > 1)
      throw new OmniposError('INVALID_ARGUMENT', 'omnipos receipt show ID: one payment ID');
    if (values.format === 'png' && !values.out)
      throw new OmniposError('INVALID_ARGUMENT', '--format png needs --out FILE');
    const query = new URLSearchParams({
      format: values.format,
      ...(values.copy ? { copy: values.copy } : {}),
      ...(values.columns ? { columns: values.columns } : {}),
    });
    const api = daemonApi(configOf(values, ctx));
    try {
      await requireDaemon(api);
      const res = await request(`${api.url}/v1/payments/${id}/receipt?${query.toString()}`, {
        dispatcher: api.dispatcher,
        headers: { authorization: `Bearer ${api.token}` },
        headersTimeout: 15_000,
        bodyTimeout: 15_000,
      });
      const bytes = Buffer.from(await res.body.arrayBuffer());
      if (res.statusCode !== 200) {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
        } catch {
          body = { error: { message: bytes.toString('utf8').slice(0, 200) } };
        }
        throw refused({ status: res.statusCode, body });
      }
      if (values.out) {
        writeFileSync(values.out, bytes);
        ctx.out(`receipt of payment ${id} written to ${values.out} (${bytes.length} bytes)\n`);
      } else ctx.out(bytes.toString('utf8'));
      return 0;
    } finally {
      await api.close();
    }
  },
};
