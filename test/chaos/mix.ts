import type { CodePlan } from './qr-sales.js';
import type { SeededRandom } from './random.js';

/** The chaos run's mix of sales: the shares of each kind, from its arguments. */
export interface MixRates {
  kill: number;
  pinpadFault: number;
  void: number;
  qr: number;
  pix: number;
  /** Card-not-present sales (cnp-draw.ts draws their plan); 0 without a backend. */
  cnp: number;
  lateQrShare: number;
}

/** One sale of the run, as the cash register and the customer will play it. */
export interface SaleDraw<C, F> {
  confirmation: 'ecr' | 'auto';
  method: 'credit' | 'debit' | 'wallet-qr' | 'pix' | 'cnp';
  codeSale: boolean;
  /** For a wallet QR or Pix sale: paid at once, never, or (wallet QR) after the terminal's validity. */
  plan: CodePlan;
  /** A card sale's card, and whether its PIN is typed wrong. */
  card: C | undefined;
  wrongPin: boolean;
  /** A card sale's pinpad fault, when it has one. */
  pinpadFault: F | undefined;
  /** Cents: whole reais with 10 cents (approved) or, for 15 %, 11 cents (declined by the host). */
  amount: number;
  /** Milliseconds after the create at which the daemon is SIGKILLed, when it is. */
  killAfter: number | undefined;
  decision: 'confirm' | 'undo' | 'none';
  voidIt: boolean;
}

/**
 * Draws one sale, in the order the run always drew them (a seed replays the same run): the card
 * from `cards` and a fault from `faults` for a card sale; `brownout` sales are credit card sales the
 * cash register undoes.
 */
export function drawSale<C, F>(
  r: SeededRandom,
  rates: MixRates,
  o: { brownout: boolean; slow: boolean; cards: { credit: readonly C[]; debit: readonly C[] }; faults: readonly F[] },
): SaleDraw<C, F> {
  const { random, pick } = r;
  const confirmation = o.brownout || random() < 0.5 ? 'ecr' : 'auto';
  const draw = random();
  const method = o.brownout
    ? 'credit'
    : draw < rates.qr
      ? 'wallet-qr'
      : draw < rates.qr + rates.pix
        ? 'pix'
        : draw < rates.qr + rates.pix + rates.cnp
          ? 'cnp'
          : random() < 0.75
            ? 'credit'
            : 'debit';
  const codeSale = method === 'wallet-qr' || method === 'pix';
  const plan: CodePlan = !codeSale
    ? 'now'
    : random() < 0.15
      ? 'never'
      : method === 'wallet-qr' && random() < rates.lateQrShare
        ? 'late'
        : 'now';
  const card = method === 'credit' || method === 'debit' ? pick(o.cards[method]) : undefined;
  const wrongPin = card !== undefined && random() < 0.05;
  const pinpadFault = !codeSale && random() < rates.pinpadFault ? pick(o.faults) : undefined;
  const amount = (10 + Math.floor(random() * 90)) * 100 + (random() < 0.85 ? 10 : 11);
  const killAfter = random() < rates.kill ? Math.floor(random() * (o.slow ? 3000 : 600)) : undefined;
  const decision = o.brownout ? 'undo' : pick(['confirm', 'undo', 'none'] as const);
  const voidIt = !codeSale && method !== 'cnp' && decision !== 'undo' && random() < rates.void;
  return { confirmation, method, codeSale, plan, card, wrongPin, pinpadFault, amount, killAfter, decision, voidIt };
}
