import { drive, finish, verdict } from './drive.js';
import type { Chooser, Verdict } from './search.js';
import { cnpSale, pixCharge, qrSale, walletVoid } from './code-timelines.js';
import { startAt, until } from './start.js';
import { SUPERVISOR, World } from './world.js';

/**
 * A card sale (credit; the card read as `pins` say, else each read explored): the sale's answer, then
 * its confirmation or its undo race. `dayCloses`: the merchant closes the day before the sale or
 * between two of its steps.
 */
export async function cardSale(
  chooser: Chooser,
  pins: Record<string, string> = {},
  dayCloses = false,
): Promise<Verdict> {
  const w = new World(chooser, startAt(chooser));
  try {
    for (const [label, option] of Object.entries(pins)) w.pinned.set(label, option);
    w.dayCloses = dayCloses;
    const when = dayCloses
      ? w.choose('the merchant closes the day', ['while the sale runs', 'before the sale'] as const)
      : '';
    if (when === 'before the sale') await w.closeDay();
    const confirmation = w.choose('the sale confirms', ['auto', 'by the ECR'] as const);
    const { done } = await w.sales.start({
      amount: 1000,
      method: 'credit',
      installments: 1,
      interest: 'ByMerchant',
      confirmation: confirmation === 'auto' ? 'auto' : 'ecr',
    });
    await w.survive(done);
    await drive(w);
    finish(w);
    return verdict(w);
  } finally {
    w.dispose();
  }
}

/** The card sale when another terminal's sale already holds its order id (issue 29, defect 9). */
export const cardSaleSharedOrderId = (chooser: Chooser): Promise<Verdict> =>
  cardSale(chooser, { 'another terminal': 'yes, its sale is Status 2' });

/**
 * The merchant's day closed (`POST /v1/day/close`) before a card sale, or between any two of its
 * steps: a sale after the close, or still running at it, is counted by the day's report as the host
 * holds it (the close's own figures stay; what came or settled after it is told beside them).
 */
export const cardSaleDayClosed = (chooser: Chooser): Promise<Verdict> => cardSale(chooser, {}, true);

/** A card sale approved and confirmed with no choice: what the void under study starts from. */
async function confirmedSale(w: World): Promise<number> {
  for (const [label, option] of [
    ['sale answer', 'Status 2 (Pago)'],
    ['the chip finishes', 'the card approves'],
    ['another terminal', 'no'],
    ['before the confirm', 'as it stands'],
    ['confirm ', 'answered'],
    ['next', 'run'],
  ] as const)
    w.pinned.set(label, option);
  const { entry, done } = await w.sales.start({
    amount: 1000,
    method: 'credit',
    installments: 1,
    interest: 'ByMerchant',
    confirmation: 'auto',
  });
  await w.survive(done);
  await drive(w);
  w.pinned.clear();
  return entry.id;
}

/** The supervisor voids (or refunds) payment `id` for what is left of it, and the timeline runs on. */
async function voidOf(w: World, id: number): Promise<void> {
  const { done } = await w.voids.start(id, { supervisor: { token: SUPERVISOR } });
  await w.survive(done);
  await drive(w);
}

/**
 * A card void (pt "Cancelamento") of a confirmed sale: the void's answer, its confirmation or its
 * undo race; and when the terminal says nothing was given back, the supervisor voids it again.
 */
export async function cardVoid(chooser: Chooser, pins: Record<string, string> = {}): Promise<Verdict> {
  const w = new World(chooser, startAt(chooser));
  try {
    for (const [label, option] of Object.entries(pins)) w.pinned.set(label, option);
    const saleId = await confirmedSale(w);
    for (const [label, option] of Object.entries(pins)) w.pinned.set(label, option);
    await voidOf(w, saleId);
    if (w.voids.remaining(saleId).remaining > 0) {
      w.say('the terminal says nothing was given back: the supervisor voids the sale again');
      await voidOf(w, saleId);
    }
    finish(w);
    return verdict(w);
  } finally {
    w.dispose();
  }
}

/** A Pix sale paid and confirmed, then refunded from the terminal (ecom "Solicitando uma devolução Pix"). */
export async function pixRefund(chooser: Chooser): Promise<Verdict> {
  const w = new World(chooser, startAt(chooser));
  try {
    const { entry, done } = await w.pix.start({
      amount: 1000,
      payer: { name: 'Comprador Teste', document: '12345678909' },
      confirmation: 'auto',
    });
    await w.survive(done);
    await until(() => w.journal.get(entry.id)?.state === 'confirmed');
    await drive(w);
    await voidOf(w, entry.id);
    finish(w);
    return verdict(w);
  } finally {
    w.dispose();
  }
}

/** The chip and fallback families: the card read pinned, every other choice explored (the FCX's among them). */
const CHIP = { 'the card is read': 'chip (FCX after the answer)' };
const CONTACTLESS = { 'the card is read': 'contactless chip (FCX after the answer)' };
const FALLBACK = { 'the card is read': 'stripe, fallback after a chip failure' };

export const OPERATIONS = {
  'card sale': (c: Chooser) => cardSale(c),
  'card sale, chip (FCX)': (c: Chooser) => cardSale(c, CHIP),
  'card sale, contactless chip (FCX)': (c: Chooser) => cardSale(c, CONTACTLESS),
  'card sale, fallback': (c: Chooser) => cardSale(c, FALLBACK),
  'card sale, order id shared': cardSaleSharedOrderId,
  "card sale, the merchant's day closed": cardSaleDayClosed,
  'card void': (c: Chooser) => cardVoid(c),
  'card void, chip (FCX)': (c: Chooser) => cardVoid(c, CHIP),
  'Pix refund': pixRefund,
  'e-commerce QR sale': (c: Chooser) => qrSale(c, 'ecommerce'),
  "wallet QR sale, the terminal's code": (c: Chooser) => qrSale(c, 'terminal'),
  "wallet QR void, the terminal's code": walletVoid,
  'Pix charge': pixCharge,
  'card-not-present sale': cnpSale,
} as const;
