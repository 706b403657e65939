import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { OmniposError, formatBRL } from '../core/index.js';
import { printJson, type CliContext, type Command } from './context.js';
import {
  callApi,
  daemonApi,
  requireDaemon,
  subscribeEvents,
  type ApiEvent,
  type DaemonApi,
  text as fieldText,
} from './daemon-api.js';

/** Exit codes of `omnipos sale`: what became of the sale, so a script can branch on it. */
export const CARD_SALE_EXIT = {
  confirmed: 0,
  unexpected: 1,
  usage: 2,
  unavailable: 3,
  refused: 4,
  declined: 5,
  cancelled: 6,
  notKept: 7,
  failed: 8,
} as const;

const EXIT_TEXT = `Exit codes: 0 approved and confirmed; 2 bad arguments or configuration; 3 no daemon answers (or
it stopped answering); 4 refused (busy, not initialized); 5 declined; 6 cancelled (Ctrl-C, the
customer, the cash register); 7 approved but not kept (undone, e.g. the receipt did not come out,
or needs a refund); 8 failed; 1 unexpected.`;

/** The status a payment ends in, and the exit code it means. */
const FINAL: Record<string, number> = {
  confirmed: CARD_SALE_EXIT.confirmed,
  declined: CARD_SALE_EXIT.declined,
  cancelled: CARD_SALE_EXIT.cancelled,
  undone: CARD_SALE_EXIT.notKept,
  'needs-refund': CARD_SALE_EXIT.notKept,
  failed: CARD_SALE_EXIT.failed,
};

/** The steps of a card sale in order, for the progress line (states the sale may skip are simply not shown). */
const STEPS = [
  'started',
  'card-read',
  'authorizing',
  'finishing-chip',
  'approved',
  'printing',
  'awaiting-decision',
  'confirming',
  'confirmed',
];

const REFUSALS: Record<number, number> = {
  400: CARD_SALE_EXIT.usage,
  401: CARD_SALE_EXIT.usage,
  409: CARD_SALE_EXIT.refused,
  422: CARD_SALE_EXIT.usage,
  503: CARD_SALE_EXIT.refused,
};

function parseWhole(text: string | undefined, flag: string, min: number, max: number): number {
  const n = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new OmniposError('INVALID_ARGUMENT', `${flag}: expected a whole number from ${min} to ${max}`, {
      option: flag,
      found: text ?? null,
    });
  }
  return n;
}

/** Runs one card sale on the daemon's API, telling the prompts and states as the event stream brings them; returns the exit code its outcome means. */
export async function runCardSale(
  api: DaemonApi,
  body: Record<string, unknown>,
  ctx: CliContext,
  json: boolean,
): Promise<number> {
  const tty = process.stdout.isTTY === true && !json;
  const say = (text: string): void => {
    if (!json) ctx.out(`${tty ? '\r\x1b[K' : ''}${text}\n`);
  };
  let id: number | undefined;
  const early: ApiEvent[] = [];
  let finalStatus: string | undefined;
  let settle!: () => void;
  const settled = new Promise<void>((r) => (settle = r));
  const started = Date.now();
  let step = '';
  const progress = (): void => {
    if (!tty || !step) return;
    const n = STEPS.indexOf(step);
    ctx.out(
      `\r\x1b[K[${n >= 0 ? n + 1 : '?'}/${STEPS.length}] ${step} … ${Math.round((Date.now() - started) / 1000)} s`,
    );
  };
  const handle = (e: ApiEvent): void => {
    if (e.type === 'prompt') say(`  pinpad: ${String(e.text)}`);
    else if (e.type === 'state') {
      step = String(e.state);
      const n = STEPS.indexOf(step);
      say(`• [${n >= 0 ? n + 1 : '?'}/${STEPS.length}] ${step} (${String(e.status)})`);
      if (typeof e.status === 'string' && e.status in FINAL) {
        finalStatus = e.status;
        settle();
      }
    } else if (e.type === 'receipt-question')
      say('? the printer may not have finished the receipt: answer "did the receipt come out?" on the screen');
    else if (e.type === 'alarm') say(`! ${String(e.code)}: ${String(e.message)}`);
    progress();
  };
  const stream = await subscribeEvents(api, (e) => {
    if (id === undefined) early.push(e);
    else if (e.id === id) handle(e);
  });
  const ticker = tty ? setInterval(progress, 1000) : undefined;
  let cancelAsked = false;
  const onInterrupt = (): void => {
    if (id === undefined || cancelAsked) return;
    cancelAsked = true;
    say('• Ctrl-C: cancelling the sale');
    void callApi(api, 'POST', `/v1/payments/${id}/cancel`).catch(() => undefined);
  };
  process.on('SIGINT', onInterrupt);
  try {
    const created = await callApi(api, 'POST', '/v1/payments', body);
    if (created.status !== 202 && created.status !== 200) {
      const error = created.body.error as { code?: string; message?: string } | undefined;
      ctx.err(
        `omnipos sale: the terminal refused the sale: HTTP ${created.status} ${error?.code ?? ''} ${error?.message ?? JSON.stringify(created.body)}\n`,
      );
      return REFUSALS[created.status] ?? CARD_SALE_EXIT.unavailable;
    }
    id = created.body.id as number;
    say(
      `• sale ${id} of ${formatBRL(body.amount as number)}, ${String(body.method)}${(body.installments as number) > 1 ? ` in ${String(body.installments)} installments` : ''} (MerchantOrderId ${String(created.body.merchantOrderId)})`,
    );
    for (const e of early.splice(0)) if (e.id === id) handle(e);
    if (typeof created.body.status === 'string' && created.body.status in FINAL) finalStatus = created.body.status;
    // The stream tells every change; a poll now and then covers a stream that dropped.
    while (finalStatus === undefined) {
      await Promise.race([settled, new Promise((r) => setTimeout(r, 2000))]);
      if (finalStatus !== undefined) break;
      const now = await callApi(api, 'GET', `/v1/payments/${id}`);
      if (typeof now.body.status === 'string' && now.body.status in FINAL) finalStatus = now.body.status;
    }
    const p = (await callApi(api, 'GET', `/v1/payments/${id}`)).body;
    if (json) printJson(ctx, p);
    else {
      const card = p.card as { maskedPan?: string; inputMode?: string } | undefined;
      const fiscal = p.fiscal as { cardBrandName?: string; cardBrand?: string } | undefined;
      say(`result: ${String(p.status)} (${String(p.state)})${p.reason ? `: ${fieldText(p.reason)}` : ''}`);
      if (card?.maskedPan)
        say(
          `  card ${card.maskedPan} (${card.inputMode ?? '?'})${fiscal ? `, ${fiscal.cardBrandName ?? ''} tBand ${fiscal.cardBrand ?? ''}` : ''}`,
        );
      if (p.authorizationCode)
        say(
          `  authorization ${fieldText(p.authorizationCode)}, NSU ${fieldText(p.nsu, '-')}, PaymentId ${fieldText(p.paymentId, '-')}`,
        );
    }
    return FINAL[String(p.status)] ?? CARD_SALE_EXIT.unexpected;
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    if (code.startsWith('UND_ERR') || code === 'ECONNREFUSED' || code === 'ECONNRESET') {
      throw new OmniposError(
        'OPERATIONS_DAEMON_UNREACHABLE',
        `the daemon's API stopped answering: ${(e as Error).message}`,
      );
    }
    throw e;
  } finally {
    if (ticker) clearInterval(ticker);
    process.off('SIGINT', onInterrupt);
    stream.close();
  }
}

export const sale: Command = {
  path: ['sale'],
  summary: 'a whole card sale from a terminal, on the running daemon, with the pinpad prompts and a progress line',
  usage: `omnipos sale --amount CENTS [--method credit|debit|voucher] [--installments N] [--interest ByMerchant|ByIssuer] [--json] [--config PATH]

Starts a card sale on the running daemon (its API address from the configuration, its token from
<stateDir>/api-token), the way a cash register would: opens GET /v1/events, posts the sale, and
prints each prompt the pinpad shows ("pinpad: INSIRA OU PASSE O CARTAO") and each step, with a
progress line on a terminal. The daemon prints the receipt and confirms the sale (confirmation:
auto). Ctrl-C cancels the sale while the card is being read. With --json, prints only the final
payment as GET /v1/payments/{id} gives it. When no daemon answers, says how to start one.

Example:
  omnipos sale --amount 1010                    # R$ 10,10 on credit (the sandbox approves cents 10)
  omnipos sale --amount 25000 --method credit --installments 3 --json

${EXIT_TEXT}`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        amount: { type: 'string' },
        method: { type: 'string', default: 'credit' },
        installments: { type: 'string', default: '1' },
        interest: { type: 'string', default: 'ByMerchant' },
        json: { type: 'boolean', default: false },
        config: { type: 'string' },
      },
      strict: true,
    });
    const amount = parseWhole(values.amount, '--amount', 1, 99_999_999);
    if (!['credit', 'debit', 'voucher'].includes(values.method))
      throw new OmniposError('INVALID_ARGUMENT', '--method: credit, debit or voucher', {
        option: '--method',
        found: values.method,
      });
    const installments = parseWhole(values.installments, '--installments', 1, 99);
    if (!['ByMerchant', 'ByIssuer'].includes(values.interest))
      throw new OmniposError('INVALID_ARGUMENT', '--interest: ByMerchant or ByIssuer', { option: '--interest' });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const api = daemonApi(config);
    try {
      await requireDaemon(api);
      return await runCardSale(
        api,
        { amount, method: values.method, installments, interest: values.interest, confirmation: 'auto' },
        ctx,
        values.json,
      );
    } finally {
      await api.close();
    }
  },
};
