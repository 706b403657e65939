import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { ERROR_CODES, OmniposError, type ErrorCode } from '../core/index.js';
import type { CliContext, Command } from './context.js';
import { printJson } from './context.js';
import { callApi, daemonApi, requireDaemon, text, type DaemonApi } from './daemon-api.js';
import { parseCents } from './qr-sale.js';
import { idArgument } from './options.js';

const SALES = '/v1/card-not-present/sales';

/** The typed card's four prompts (GCD) and the BIN lookup: the POST is answered once they are done. */
export const TYPING_MS = 5 * 60_000;

/** The states a sale ends in, or holds (a pre-authorization), and whether that is a success. */
export const OUTCOME: Readonly<Record<string, boolean>> = {
  captured: true,
  authorized: true,
  declined: false,
  failed: false,
  undone: false,
  'needs-refund': false,
  'dead-letter': false,
};

export function configOf(args: { config?: string | undefined }, ctx: CliContext) {
  return loadConfig({ ...(args.config ? { path: args.config } : {}), env: ctx.env });
}

/** An API refusal as the catalogue's error of the same code (its exit code), the daemon's words kept. */
export function refused(r: { status: number; body: Record<string, unknown> }): OmniposError {
  const e = (r.body.error ?? {}) as { code?: unknown; message?: unknown };
  const message = text(e.message, `HTTP ${r.status}`);
  const code = typeof e.code === 'string' && e.code in ERROR_CODES ? (e.code as ErrorCode) : 'INTERNAL';
  return new OmniposError(code, `the daemon answered HTTP ${r.status}: ${message}`, { status: r.status });
}

/** Reads the sale until it leaves `sending` (the host answered, or the outbox took it over). */
export async function settled(api: DaemonApi, id: string): Promise<Record<string, unknown>> {
  const end = Date.now() + 120_000;
  for (;;) {
    const r = await callApi(api, 'GET', `${SALES}/${id}`);
    if (r.status !== 200) throw refused(r);
    if (r.body.state !== 'sending' || Date.now() > end) return r.body;
    await new Promise((res) => setTimeout(res, 200));
  }
}

const EXITS = `Exit codes: 0 captured, or authorized (a pre-authorization); 1 declined, failed or undone (nothing
charged), or the card not typed; 2 bad arguments; 3 no daemon answers; otherwise the exit code of the
daemon's refusal (its error code's, docs/integration.md).`;

/** The options that name a sale's card: typed (`--holder`, `--brand`) or saved (`--saved-card`). */
export const CARD_OPTIONS = {
  holder: { type: 'string' },
  brand: { type: 'string' },
  'saved-card': { type: 'string' },
} as const;

/** The card of a sale from the command's options: typed (`--holder`, `--brand`, `--save-card`) or `--saved-card ID`. */
export function cardOf(values: {
  holder?: string | undefined;
  brand?: string | undefined;
  'saved-card'?: string | undefined;
  'save-card'?: boolean | undefined;
}): Record<string, unknown> {
  const saved = values['saved-card'];
  if (saved !== undefined) {
    if (!/^\d{1,12}$/.test(saved))
      throw new OmniposError('INVALID_ARGUMENT', '--saved-card: the id cnp card list shows');
    if (values.holder !== undefined || values.brand !== undefined || values['save-card'])
      throw new OmniposError(
        'INVALID_ARGUMENT',
        '--saved-card: not with --holder, --brand or --save-card (nothing is typed)',
      );
    return { savedCardId: Number(saved) };
  }
  const holder = values.holder?.trim();
  if (!holder)
    throw new OmniposError('INVALID_ARGUMENT', '--holder: the name printed on the card is required (or --saved-card)');
  return {
    holder,
    ...(values.brand ? { brand: values.brand } : {}),
    ...(values['save-card'] ? { saveCard: true } : {}),
  };
}

/**
 * Posts a sale (or a recurrence's first charge) to the daemon, telling the customer to type the card
 * when one is typed, waits for it to leave `sending`, prints it: its exit code (0 captured or
 * authorized, 1 otherwise or not typed).
 */
export async function sellThrough(
  api: DaemonApi,
  ctx: CliContext,
  path: string,
  body: Record<string, unknown>,
): Promise<number> {
  await requireDaemon(api);
  if (body.savedCardId === undefined)
    ctx.err('type the card on the pinpad: number, month (MM), year (AAAA), security code\n');
  const r = await callApi(api, 'POST', path, body, TYPING_MS);
  if (r.status !== 202 && r.status !== 200) {
    const e = refused(r);
    if (e.code === 'CNP_TYPING_CANCELLED') {
      ctx.err(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
  const sale = await settled(api, String(r.body.id));
  printJson(ctx, sale);
  return OUTCOME[String(sale.state)] === true ? 0 : 1;
}

export const cnpSale: Command = {
  path: ['cnp', 'sale'],
  summary: 'a phone order (card not present): the card typed on the pinpad, or a saved card, on the running daemon',
  usage: `omnipos cnp sale --amount CENTS (--holder NAME [--brand NAME] [--save-card] | --saved-card ID)
                [--installments N] [--preauth] [--config PATH]

Starts a sale without the card present on the running daemon (cardNotPresent in its configuration):
the pinpad asks the card number, the expiry month, the 4-digit year and the security code (the
customer or the cashier types them there, never here). --holder is the name printed on the card;
--brand is needed on the webservice 1.5 (no BIN lookup), optional on the e-commerce API.
--save-card saves the typed card at the host too (kept if the sale is approved: cnp card list).
--saved-card ID sells by a saved card instead: nothing is typed.
--preauth asks a pre-authorization (captured or voided later). Prints the sale as the API shows it.

${EXITS}

Examples:
  omnipos cnp sale --amount 1990 --holder 'ANA SILVA'
  omnipos cnp sale --amount 8990 --saved-card 3`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        amount: { type: 'string' },
        ...CARD_OPTIONS,
        installments: { type: 'string' },
        preauth: { type: 'boolean' },
        'save-card': { type: 'boolean' },
        config: { type: 'string' },
      },
      strict: true,
    });
    const amount = parseCents(values.amount, '--amount');
    const card = cardOf(values);
    const installments = values.installments === undefined ? 1 : Number(values.installments);
    if (!Number.isInteger(installments) || installments < 1 || installments > 99)
      throw new OmniposError('INVALID_ARGUMENT', '--installments: 1 to 99');
    const api = daemonApi(configOf(values, ctx));
    try {
      return await sellThrough(api, ctx, SALES, { amount, installments, capture: values.preauth !== true, ...card });
    } finally {
      await api.close();
    }
  },
};

export const cnpShow: Command = {
  path: ['cnp', 'show'],
  summary: 'print a sale without the card present as the API shows it (masked number, state, host ids)',
  usage: `omnipos cnp show ID [--config PATH]

Prints GET /v1/card-not-present/sales/ID of the running daemon.

Exit codes: 0 printed; 2 bad arguments or no such sale; 3 no daemon answers.

Example:
  omnipos cnp show 12`,
  async run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: { config: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const id = idArgument(positionals, 'the sale number POST /v1/card-not-present/sales returned');
    const api = daemonApi(configOf(values, ctx));
    try {
      await requireDaemon(api);
      const r = await callApi(api, 'GET', `${SALES}/${id}`);
      if (r.status === 404) throw new OmniposError('ENGINE_NOT_FOUND', `no card-not-present sale ${id}`, { id });
      if (r.status !== 200) throw refused(r);
      printJson(ctx, r.body);
      return 0;
    } finally {
      await api.close();
    }
  },
};
