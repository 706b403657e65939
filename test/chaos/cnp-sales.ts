/**
 * One card-not-present sale of the chaos run, as a cash register and an attendant play it: the card
 * typed on the virtual pinpad when its prompt shows (GCD: number, month, year, security code, ABECS
 * 2.20 §3.3.8), `POST /v1/card-not-present/sales` with an Idempotency-Key of its own (asked again with
 * the same key while the terminal is busy, after the daemon died under the request, and, for a share,
 * once more after the answer: the same sale must come back), then the plan: a capture whole or in part,
 * a void whole or in part, a capture left for later, or nothing. The daemon may be SIGKILLed during
 * the create or during the capture or void; the cash register then asks again what it never heard.
 */
import type { CnpBackend, CnpCard, CnpDraw } from './cnp-draw.js';
import { partOf } from './cnp-draw.js';
import { count } from './random.js';
import { sleep, type Terminal } from './terminal.js';

const SALES = '/v1/card-not-present/sales';

/** What the cash register asked of a sale and what the API answered (0: the daemon died under it). */
export interface CnpIntent {
  terminal: string;
  id: number;
  merchantOrderId: string;
  backend: CnpBackend;
  plan: CnpDraw['plan'];
  asked: { op: 'capture' | 'void'; amount?: number; status: number }[];
  /** The create sent again with the same key after its answer: the status and whether it named the same sale. */
  replay?: { status: number; same: boolean };
}

export interface CnpFigures {
  creates: Record<string, number>;
  answers: Record<string, number>;
  changes: Record<string, number>;
  replays: Record<string, number>;
  /** Creates the daemon died under, asked again with the same key after its restart. */
  askedAgain: number;
  /** Creates answered 503 `CNP_TYPING_FAILED` (the pinpad could not take the typing), asked again with the same key. */
  typingFailed: { sales: number; retries: number; gaveUp: number };
}

export const newCnpFigures = (): CnpFigures => ({
  creates: {},
  answers: {},
  changes: {},
  replays: {},
  askedAgain: 0,
  typingFailed: { sales: 0, retries: 0, gaveUp: 0 },
});

export interface CnpHooks {
  /** Starts the daemon again after a kill. */
  restart(): Promise<void>;
  waitMs: number;
  busyMs: number;
  figures: CnpFigures;
}

const code = (r: { body?: any }): string => String(r.body?.error?.code ?? '');

/** The prompt on the pinpad's display → what the attendant types (the GCD table's words, gcd-messages.ts). */
function keyFor(display: string, card: CnpCard): string | undefined {
  if (display.includes('NÚMERO DO CARTÃO')) return card.number;
  if (display.includes('MÊS (MM)')) return card.month;
  if (display.includes('ANO (AAAA)')) return card.year;
  if (display.includes('CÓDIGO DE SEGURANÇA')) return card.code;
  return undefined;
}

/**
 * Types `card` as its prompts show, until `stop.done`: the pinpad waits for keys meanwhile (typing
 * `null`), so nothing is typed ahead that a later prompt (a killed sale's) would read; set back after.
 */
async function attendant(t: Terminal, card: CnpCard, stop: { done: boolean }): Promise<void> {
  await t.customer({ cmd: 'typing', ms: null });
  try {
    while (!stop.done) {
      const state = JSON.parse(await t.customer({ cmd: 'state' })) as { display?: string[] };
      const key = keyFor((state.display ?? []).join(' '), card);
      if (key !== undefined) await t.customer({ cmd: 'keys', value: key });
      else await sleep(15);
    }
  } finally {
    await t.customer({ cmd: 'typing', ms: 5 });
  }
}

/** The refusals the cash register asks again with the same key: nothing was journaled nor sent for them. */
const ASKED_AGAIN = new Set(['409 BUSY', '503 PINPAD_OPENING', '503 CNP_TYPING_FAILED']);

/**
 * The create, typed, asked again with the same key while the terminal is busy or its pinpad opening, and
 * after the pinpad failed to take the typing (503 `CNP_TYPING_FAILED`: the cashier has the card typed
 * again, as `create.ts` asks again after 409 BUSY and 503 CLOCK_BEHIND), each until `busyMs`.
 */
async function create(
  t: Terminal,
  draw: CnpDraw,
  key: string,
  hooks: CnpHooks,
): Promise<{ status: number; body: any }> {
  const body = {
    amount: draw.amount,
    capture: draw.plan.startsWith('phone'),
    holder: 'ANA SILVA',
    ...(draw.card.brand ? { brand: draw.card.brand } : {}),
  };
  const stop = { done: false };
  const typing = attendant(t, draw.card, stop);
  try {
    const until = Date.now() + hooks.busyMs;
    const failed = hooks.figures.typingFailed;
    let typingFailed = false;
    for (;;) {
      const r = await t.call('POST', SALES, body, { 'idempotency-key': key });
      const refusal = `${r.status} ${code(r)}`;
      const again = ASKED_AGAIN.has(refusal) && Date.now() <= until;
      if (refusal === '503 CNP_TYPING_FAILED') {
        if (!typingFailed) failed.sales++;
        typingFailed = true;
        if (again) failed.retries++;
        else failed.gaveUp++;
      }
      if (!again) return r;
      await sleep(200);
    }
  } finally {
    stop.done = true;
    await typing.catch(() => undefined);
  }
}

/** The sale until it leaves `sending` (its answer, or the undo race it went to), at most `ms`. */
async function settled(t: Terminal, id: number, ms: number): Promise<any> {
  const until = Date.now() + ms;
  for (;;) {
    const s = await t.call('GET', `${SALES}/${id}`);
    if (s.body?.state !== 'sending' || Date.now() > until) return s.body;
    await sleep(30);
  }
}

/** Runs `f` with the daemon SIGKILLed `killAfter` ms into it (when given); restarts a dead daemon after. */
async function underKill<T>(t: Terminal, killAfter: number | undefined, hooks: CnpHooks, f: () => Promise<T>) {
  const target = t.daemon;
  const killer = killAfter === undefined ? undefined : sleep(killAfter).then(() => t.kill(target));
  let result: T | undefined;
  try {
    result = await f();
  } catch {
    /* the daemon died under the request */
  }
  await killer;
  if (!t.alive()) await hooks.restart();
  return result;
}

/** A capture or void; asked again once when the daemon died under it before the sale showed it asked. */
async function change(
  t: Terminal,
  intent: CnpIntent,
  op: 'capture' | 'void',
  amount: number | undefined,
  o: { before: { state?: string; voidedAmount?: number }; killAfter: number | undefined; hooks: CnpHooks },
): Promise<void> {
  const headers: Record<string, string> = op === 'void' ? { 'x-supervisor-token': t.supervisor } : {};
  const ask = () => t.call('POST', `${SALES}/${intent.id}/${op}`, amount === undefined ? {} : { amount }, headers);
  let r = await underKill(t, o.killAfter, o.hooks, ask);
  if (!r) {
    // The cash register never heard: it reads the sale, and asks again only if nothing was journaled.
    const s = (await t.call('GET', `${SALES}/${intent.id}`)).body;
    const unmoved = s?.state === o.before.state && (s?.voidedAmount ?? 0) === (o.before.voidedAmount ?? 0);
    count(o.hooks.figures.changes, `${op} died under, then ${String(s?.state)}`);
    if (unmoved) r = await ask().catch(() => undefined);
  }
  intent.asked.push({ op, ...(amount !== undefined ? { amount } : {}), status: r?.status ?? 0 });
  const answer = r ? `${r.status}${r.status >= 400 ? ` ${code(r)}` : ''}` : 'no answer';
  count(o.hooks.figures.changes, `${op}${amount === undefined ? '' : ' part'} ${answer}`);
}

/**
 * One card-not-present sale on `t` after `draw`. Returns its intent (undefined when no sale was
 * created) and, for a capture left for later, what to capture at the end.
 */
export async function cnpSale(
  t: Terminal,
  draw: CnpDraw,
  key: string,
  hooks: CnpHooks,
): Promise<CnpIntent | undefined> {
  const f = hooks.figures;
  const atCreate = draw.killAt === 'create' ? draw.killAfter : undefined;
  let created = await underKill(t, atCreate, hooks, () => create(t, draw, key, hooks));
  if (!created) {
    // The daemon died under the create: the cash register asks again with the same key (the same sale if
    // it was journaled; a new one, typed again, if not).
    f.askedAgain++;
    created = await create(t, draw, key, hooks).catch(() => undefined);
  }
  count(f.creates, created ? `${created.status}${created.status >= 400 ? ` ${code(created)}` : ''}` : 'no answer');
  if (!created || (created.status !== 202 && created.status !== 200)) return undefined;
  const id = Number(created.body.id);
  const intent: CnpIntent = {
    terminal: t.name,
    id,
    merchantOrderId: String(created.body.merchantOrderId),
    backend: draw.backend,
    plan: draw.plan,
    asked: [],
  };
  const sale = await settled(t, id, hooks.waitMs);
  count(
    f.answers,
    `${draw.backend} ${draw.approves === undefined ? 'random' : draw.approves ? 'approving' : 'denying'}: ${String(sale?.state)}`,
  );
  if (draw.replay) {
    const again = await create(t, draw, key, hooks).catch(() => undefined);
    intent.replay = { status: again?.status ?? 0, same: again?.body?.id === id };
    count(f.replays, `${intent.replay.status} ${intent.replay.same ? 'same sale' : 'ANOTHER SALE'}`);
  }
  const atChange = { before: sale ?? {}, killAfter: draw.killAt === 'change' ? draw.killAfter : undefined, hooks };
  const captured = sale?.state === 'captured';
  if (sale?.state === 'authorized') {
    if (draw.plan === 'capture-whole') await change(t, intent, 'capture', undefined, atChange);
    if (draw.plan === 'capture-part') await change(t, intent, 'capture', partOf(draw.amount, draw.backend), atChange);
    if (draw.plan === 'void') await change(t, intent, 'void', undefined, atChange);
  }
  if (captured && draw.plan === 'phone-void') await change(t, intent, 'void', undefined, atChange);
  if (captured && draw.plan === 'phone-void-part')
    await change(t, intent, 'void', partOf(draw.amount, draw.backend), atChange);
  return intent;
}

/** The captures left for later: asked after the run's sales, the host's day past its close. */
export async function captureLate(
  terminals: readonly Terminal[],
  intents: readonly CnpIntent[],
  hooksOf: (t: Terminal) => CnpHooks,
): Promise<void> {
  for (const intent of intents) {
    if (intent.plan !== 'capture-late') continue;
    const t = terminals.find((x) => x.name === intent.terminal);
    if (!t) continue;
    const s = (await t.call('GET', `${SALES}/${intent.id}`)).body;
    if (s?.state !== 'authorized') continue;
    await change(t, intent, 'capture', undefined, { before: s, killAfter: undefined, hooks: hooksOf(t) });
  }
}
