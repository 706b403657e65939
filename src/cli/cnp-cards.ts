import { parseArgs } from 'node:util';
import { OmniposError } from '../core/index.js';
import { CNP_RECURRENCE_INTERVALS } from '../engine/index.js';
import { CARD_OPTIONS, cardOf, configOf, refused, sellThrough, TYPING_MS } from './cnp.js';
import { idArgument } from './options.js';
import type { CliContext, Command } from './context.js';
import { printJson } from './context.js';
import { callApi, daemonApi, requireDaemon, type DaemonApi } from './daemon-api.js';
import { parseCents } from './qr-sale.js';
import { askHidden, readPasswordFile } from './void.js';

/**
 * The technician's commands for saved cards and recurrences (card not present), each one call of
 * the running daemon's local API: `cnp card save|list|remove`, `cnp recurrence create|show`.
 */

const CARDS = '/v1/card-not-present/cards';
const RECURRENCES = '/v1/card-not-present/recurrences';

/** Runs `call` on the daemon of the command's configuration, closed afterwards. */
async function onDaemon<T>(
  values: { config?: string | undefined },
  ctx: CliContext,
  call: (api: DaemonApi) => Promise<T>,
): Promise<T> {
  const api = daemonApi(configOf(values, ctx));
  try {
    await requireDaemon(api);
    return await call(api);
  } finally {
    await api.close();
  }
}

/** A GET of the daemon printed as JSON: 0, or the refusal (a 404 as ENGINE_NOT_FOUND, exit 2). */
async function show(api: DaemonApi, ctx: CliContext, path: string, what: string): Promise<number> {
  const r = await callApi(api, 'GET', path);
  if (r.status === 404) throw new OmniposError('ENGINE_NOT_FOUND', `no ${what}`, { path });
  if (r.status !== 200) throw refused(r);
  printJson(ctx, r.body);
  return 0;
}

export const cnpCardSave: Command = {
  path: ['cnp', 'card', 'save'],
  summary: 'save a card at the host without a sale (card not present): typed on the pinpad',
  usage: `omnipos cnp card save --holder NAME [--brand NAME] [--config PATH]

The pinpad asks the card number, the expiry and the security code; the host saves the card and the
terminal keeps its token sealed. Nothing is charged. Prints the saved card (its id, masked number,
brand, backend): sell by it with \`omnipos cnp sale --saved-card ID\`.

Exit codes: 0 saved; 1 the card not typed; 2 bad arguments; 3 no daemon answers; otherwise the exit
code of the daemon's refusal (the host refused it: 4).

Example:
  omnipos cnp card save --holder 'ANA SILVA'`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { holder: { type: 'string' }, brand: { type: 'string' }, config: { type: 'string' } },
      strict: true,
    });
    const holder = values.holder?.trim();
    if (!holder) throw new OmniposError('INVALID_ARGUMENT', '--holder: the name printed on the card is required');
    return onDaemon(values, ctx, async (api) => {
      ctx.err('type the card on the pinpad: number, month (MM), year (AAAA), security code\n');
      const body = { holder, ...(values.brand ? { brand: values.brand } : {}) };
      const r = await callApi(api, 'POST', CARDS, body, TYPING_MS);
      if (r.status === 201 || r.status === 200) {
        printJson(ctx, r.body);
        return 0;
      }
      const e = refused(r);
      if (e.code !== 'CNP_TYPING_CANCELLED') throw e;
      ctx.err(`${e.message}\n`);
      return 1;
    });
  },
};

export const cnpCardList: Command = {
  path: ['cnp', 'card', 'list'],
  summary: 'list the saved cards: id, masked number, brand, backend (never the token)',
  usage: `omnipos cnp card list [--config PATH]

Prints GET /v1/card-not-present/cards of the running daemon.

Exit codes: 0 printed; 3 no daemon answers; 4 no cardNotPresent configured.

Example:
  omnipos cnp card list`,
  async run(args, ctx) {
    const { values } = parseArgs({ args, options: { config: { type: 'string' } }, strict: true });
    return onDaemon(values, ctx, (api) => show(api, ctx, CARDS, 'saved cards'));
  },
};

export const cnpCardRemove: Command = {
  path: ['cnp', 'card', 'remove'],
  summary: "remove a saved card, with the supervisor's password: its sealed token erased from the disk",
  usage: `omnipos cnp card remove ID [--supervisor-password-file FILE] [--config PATH]

Removes the saved card ID (\`omnipos cnp card list\`) on the running daemon: the terminal forgets its
token for good. The supervisor password is asked on the terminal (not echoed) unless
--supervisor-password-file names a file holding it.

Exit codes: 0 removed; 2 bad arguments or no such card; 3 no daemon answers; 4 the supervisor refused.

Example:
  omnipos cnp card remove 3`,
  async run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: { 'supervisor-password-file': { type: 'string' }, config: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const id = idArgument(positionals, 'the saved card (cnp card list)');
    const file = values['supervisor-password-file'];
    const password = file ? readPasswordFile(file) : await askHidden('supervisor password: ', ctx);
    return onDaemon(values, ctx, async (api) => {
      const r = await callApi(api, 'DELETE', `${CARDS}/${id}`, undefined, undefined, {
        'x-supervisor-password': password,
      });
      if (r.status === 404) throw new OmniposError('ENGINE_NOT_FOUND', `no saved card ${id}`, { id });
      if (r.status !== 200) throw refused(r);
      printJson(ctx, r.body);
      return 0;
    });
  },
};

export const cnpRecurrenceCreate: Command = {
  path: ['cnp', 'recurrence', 'create'],
  summary: 'a recurrence the host schedules (a gym kiosk): its first charge now, the card typed or saved',
  usage: `omnipos cnp recurrence create --amount CENTS --interval INTERVAL [--end YYYY-MM-DD]
                              (--holder NAME [--brand NAME] | --saved-card ID) [--config PATH]

Creates a recurrence on the running daemon: a sale of --amount now (its first charge, the card typed
on the pinpad or a saved card), after which the host charges the card again every INTERVAL
(${CNP_RECURRENCE_INTERVALS.join(', ')}) until --end. The e-commerce API only: the webservice 1.5
schedules none (refused, exit 4). Prints the first charge; \`omnipos cnp recurrence show ID\` reads it.

Exit codes: 0 the first charge captured; 1 declined, failed or not typed; 2 bad arguments; 3 no
daemon answers; 4 refused by the daemon or its host.

Example:
  omnipos cnp recurrence create --amount 8990 --interval monthly --holder 'ANA SILVA'`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        amount: { type: 'string' },
        interval: { type: 'string' },
        end: { type: 'string' },
        ...CARD_OPTIONS,
        config: { type: 'string' },
      },
      strict: true,
    });
    const amount = parseCents(values.amount, '--amount');
    const interval = values.interval;
    if (!interval || !(CNP_RECURRENCE_INTERVALS as readonly string[]).includes(interval))
      throw new OmniposError('INVALID_ARGUMENT', `--interval: one of ${CNP_RECURRENCE_INTERVALS.join(', ')}`);
    const body = { amount, interval, ...(values.end ? { endDate: values.end } : {}), ...cardOf(values) };
    const api = daemonApi(configOf(values, ctx));
    try {
      return await sellThrough(api, ctx, RECURRENCES, body);
    } finally {
      await api.close();
    }
  },
};

export const cnpRecurrenceShow: Command = {
  path: ['cnp', 'recurrence', 'show'],
  summary: 'print a recurrence as its host shows it now (status, next charge, its charges)',
  usage: `omnipos cnp recurrence show ID [--config PATH]

Prints GET /v1/card-not-present/recurrences/ID of the running daemon: ID is the sale that opened it
(the id \`cnp recurrence create\` printed).

Exit codes: 0 printed; 2 bad arguments or no such recurrence; 3 no daemon answers; 4 not offered
(the webservice 1.5) or none opened (the first charge declined).

Example:
  omnipos cnp recurrence show 12`,
  async run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: { config: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const id = idArgument(positionals, 'the sale that opened the recurrence');
    return onDaemon(values, ctx, (api) => show(api, ctx, `${RECURRENCES}/${id}`, `recurrence ${id}`));
  },
};

/**
 * A capture or a void of card-not-present sale `id` (one call of the daemon): prints the payment as
 * GET /v1/payments/ID shows it, 0 on 200 (done) or 202 (the answer lost: `capturing`/`voiding`, the
 * outbox settles it); a 404 is ENGINE_NOT_FOUND (exit 2), any other refusal its code's exit.
 */
async function changeSale(
  api: DaemonApi,
  ctx: CliContext,
  asked: { id: string; op: 'capture' | 'void'; amount: string | undefined; headers?: Record<string, string> },
): Promise<number> {
  const body = asked.amount === undefined ? {} : { amount: parseCents(asked.amount, '--amount') };
  const path = `/v1/card-not-present/sales/${asked.id}/${asked.op}`;
  const r = await callApi(api, 'POST', path, body, undefined, asked.headers);
  if (r.status === 404) throw new OmniposError('ENGINE_NOT_FOUND', `no card-not-present sale ${asked.id}`, asked);
  if (r.status !== 200 && r.status !== 202) throw refused(r);
  printJson(ctx, r.body);
  return 0;
}

export const cnpCapture: Command = {
  path: ['cnp', 'capture'],
  summary: 'capture a card-not-present pre-authorization, whole or in part (--amount)',
  usage: `omnipos cnp capture ID [--amount CENTS] [--config PATH]

Captures the pre-authorization ID (\`omnipos cnp sale --preauth\`) on the running daemon, whole or
--amount cents of it, once, within the host's deadline. Prints the payment as GET /v1/payments/ID
shows it.

Exit codes: 0 captured (or its answer lost: the outbox settles it, printed as \`capturing\`); 2 bad
arguments or no such sale; 3 no daemon answers; 4 not allowed, or the host refused it.

Example:
  omnipos cnp capture 12 --amount 6000`,
  async run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: { amount: { type: 'string' }, config: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const id = idArgument(positionals, 'the pre-authorization (cnp sale --preauth)');
    if (values.amount !== undefined) parseCents(values.amount, '--amount');
    return onDaemon(values, ctx, (api) => changeSale(api, ctx, { id, op: 'capture', amount: values.amount }));
  },
};

export const cnpVoid: Command = {
  path: ['cnp', 'void'],
  summary: "void a phone order or a pre-authorization (card not present), with the supervisor's password",
  usage: `omnipos cnp void ID [--amount CENTS] [--supervisor-password-file FILE] [--config PATH]

Voids the card-not-present sale ID on the running daemon (POST /v1/card-not-present/sales/ID/void):
a pre-authorization whole (the host releases the amount held), a captured sale whole or --amount
cents of it (the rest stays captured). Nothing is typed: the host voids by its own id. The supervisor
password is asked on the terminal (not echoed) unless --supervisor-password-file names a file holding
it, as \`omnipos void\` asks it. Prints the payment as GET /v1/payments/ID shows it.

Exit codes: 0 voided, or what remains captured (or its answer lost: the outbox settles it, printed as
\`voiding\`); 2 bad arguments or no such sale; 3 no daemon answers; 4 not allowed (a part of a
pre-authorization, a sale declined or voided already), the supervisor refused, or the host refused it.

Example:
  omnipos cnp void 12 --amount 500 --supervisor-password-file /run/omnipos/supervisor`,
  async run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        amount: { type: 'string' },
        'supervisor-password-file': { type: 'string' },
        config: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    const id = idArgument(positionals, 'the card-not-present sale (cnp sale)');
    if (values.amount !== undefined) parseCents(values.amount, '--amount');
    const file = values['supervisor-password-file'];
    const password = file ? readPasswordFile(file) : await askHidden('supervisor password: ', ctx);
    const headers = { 'x-supervisor-password': password };
    return onDaemon(values, ctx, (api) => changeSale(api, ctx, { id, op: 'void', amount: values.amount, headers }));
  },
};
