/**
 * The chaos run's card-not-present sales (phone orders and pre-authorizations typed on the pinpad):
 * the backends' documented test cards and amounts, and the draw of one sale's plan.
 *
 * - `ecommerce` (the JSON e-commerce API's sandbox): the last digit of the number chooses (ecom:388-408):
 *   0, 1, 4 authorized; 2, 3, 5, 6, 7, 8 denied; 9 at random. The brand is named, or (left out) found by
 *   the host's BIN lookup (411111: Visa, multiple, supported: ecom:476-479).
 * - `webservice15` (the XML webservice 1.5's host model): its test cards without authentication
 *   (ws15:1512-1519); an amount that does not end in 00 is always declined (ws15:1530), and so is a card
 *   outside the table (lr 14, ws15:626). The service has no BIN lookup: the brand is always named.
 */
import { isLuhnValid } from '../../src/crypto/index.js';
import type { SeededRandom } from './random.js';

export type CnpBackend = 'ecommerce' | 'webservice15';

/** What the customer reads out and the attendant types: the number, the expiry, the security code. */
export interface CnpCard {
  number: string;
  month: string;
  year: string;
  code: string;
  /** The brand the cash register names; absent: the host's BIN lookup tells it. */
  brand?: string;
}

/**
 * What happens to the sale after its answer: a phone order captured at once (voided later whole or in
 * part, or left), or a pre-authorization captured whole, in part, late (after the run's sales, the
 * host's day past its close), voided, or left open.
 */
export type CnpPlan =
  'phone' | 'phone-void' | 'phone-void-part' | 'capture-whole' | 'capture-part' | 'capture-late' | 'void' | 'open';

export interface CnpDraw {
  backend: CnpBackend;
  plan: CnpPlan;
  card: CnpCard;
  /** Cents. */
  amount: number;
  /** Whether the host's documented card ending or amount approves it (`undefined`: the host draws, ending 9). */
  approves: boolean | undefined;
  /** Milliseconds after the create (or the capture or void, `killAt`) at which the daemon is SIGKILLed. */
  killAfter: number | undefined;
  killAt: 'create' | 'change';
  /** The cash register sends the create again with the same Idempotency-Key after its answer. */
  replay: boolean;
}

/** A Visa number (BIN 411111) ending in `last`, its check digit (the second from the right) made right. */
export function luhnNumber(r: SeededRandom, last: number): string {
  const middle = Array.from({ length: 8 }, () => String(Math.floor(r.random() * 10))).join('');
  for (let d = 0; d < 10; d++) {
    const n = `411111${middle}${d}${last}`;
    if (isLuhnValid(n)) return n;
  }
  throw new Error('no check digit');
}

/** ws15:1512-1519, the rows without authentication, with the brand as the cash register names it. */
const WS15_CARDS = [
  { number: '4012001038443335', code: '123', brand: 'Visa' },
  { number: '376449047333005', code: '1234', brand: 'Amex' },
  { number: '6362970000457013', code: '123', brand: 'Elo' },
  { number: '36490102462661', code: '123', brand: 'Diners' },
  { number: '6011020000245045', code: '123', brand: 'Discover' },
  { number: '3566007770004971', code: '123', brand: 'JCB' },
] as const;

const APPROVING_ENDINGS = [0, 1, 4] as const;
const DENYING_ENDINGS = [2, 3, 5, 6, 7, 8] as const;

function ecommerceCard(r: SeededRandom): { card: CnpCard; approves: boolean | undefined } {
  const draw = r.random();
  const last = draw < 0.75 ? r.pick(APPROVING_ENDINGS) : draw < 0.95 ? r.pick(DENYING_ENDINGS) : 9;
  const named = r.random() < 0.5;
  return {
    card: { number: luhnNumber(r, last), month: '07', year: '2031', code: '918', ...(named ? { brand: 'Visa' } : {}) },
    approves: last === 9 ? undefined : APPROVING_ENDINGS.some((e) => e === last),
  };
}

function ws15Card(r: SeededRandom): { card: CnpCard; approves: boolean; amountEndsIn00: boolean } {
  const draw = r.random();
  // A card outside the test table: declined whatever the amount (lr 14).
  if (draw < 0.05)
    return {
      card: { number: '4111111111111111', month: '05', year: '2031', code: '123', brand: 'Visa' },
      approves: false,
      amountEndsIn00: true,
    };
  const c = r.pick(WS15_CARDS);
  const amountEndsIn00 = draw < 0.82;
  return {
    card: { number: c.number, month: '05', year: '2031', code: c.code, brand: c.brand },
    approves: amountEndsIn00,
    amountEndsIn00,
  };
}

function planOf(r: SeededRandom, voidRate: number): CnpPlan {
  if (r.random() < 0.5) {
    if (r.random() >= voidRate * 3) return 'phone';
    return r.random() < 0.5 ? 'phone-void' : 'phone-void-part';
  }
  const d = r.random();
  return d < 0.25 ? 'capture-whole' : d < 0.45 ? 'capture-part' : d < 0.65 ? 'capture-late' : d < 0.8 ? 'void' : 'open';
}

/** Draws one card-not-present sale on `backend`; `kill` and `voidRate` are the run's rates. */
export function drawCnp(
  r: SeededRandom,
  backend: CnpBackend,
  o: { kill: number; voidRate: number; slow: boolean },
): CnpDraw {
  const plan = planOf(r, o.voidRate);
  const reais = 10 + Math.floor(r.random() * 90);
  let card: CnpCard;
  let approves: boolean | undefined;
  let amount: number;
  if (backend === 'ecommerce') {
    ({ card, approves } = ecommerceCard(r));
    amount = reais * 100 + 10;
  } else {
    const w = ws15Card(r);
    ({ card, approves } = w);
    amount = reais * 100 + (w.amountEndsIn00 ? 0 : 10);
  }
  const killAfter = r.random() < o.kill ? Math.floor(r.random() * (o.slow ? 3000 : 600)) : undefined;
  const changes = plan !== 'phone' && plan !== 'open' && plan !== 'capture-late';
  const killAt = changes && r.random() < 0.5 ? 'change' : 'create';
  return { backend, plan, card, amount, approves, killAfter, killAt, replay: r.random() < 0.3 };
}

/** The part a partial capture or void asks: about 60 % of `of`, in whole reais on the webservice 1.5. */
export function partOf(of: number, backend: CnpBackend): number {
  const part = Math.floor(of * 0.6);
  return backend === 'webservice15' ? Math.max(100, Math.floor(part / 100) * 100) : Math.max(1, part);
}
