import { describe, expect, it } from 'vitest';
import { describe as tell, explore, type SearchResult } from './search.js';
import { DAY_INVARIANT } from './day.js';
import { OPERATIONS } from './timelines.js';

/**
 * The bounded run of the exhaustive explorer (issue 29): every timeline of each operation with at most
 * one choice off the default (`npm run explore` goes deeper). Each invariant is its own test per
 * operation. On 285360d they found defects 1, 2, 3, 7, 8 and 9 (`it.fails`, named by the defect, until
 * s7-money's fixes were merged); an invariant a known defect still breaks stays an `it.fails` named by it.
 */
const BOUND = { maxDeviations: 1 };
const runs = new Map<string, Promise<SearchResult>>();
function result(op: keyof typeof OPERATIONS): Promise<SearchResult> {
  let r = runs.get(op);
  if (!r) runs.set(op, (r = explore(OPERATIONS[op], BOUND)));
  return r;
}

/** The shortest timeline breaking `invariant`, printed (undefined: it holds on every timeline). */
async function broken(op: keyof typeof OPERATIONS, invariant: string): Promise<string | undefined> {
  const c = (await result(op)).counterexamples.find((x) => x.invariant === invariant);
  return c ? tell(c) : undefined;
}

const INVARIANTS = {
  charge: 'a charge the terminal reports undone or not charged',
  confirmed: 'a sale the ECR was told confirmed is cancelled at the host without an alarm',
  open: 'an operation never ends',
  alarm: 'needs-refund or a dead letter without its alarm',
  close: 'an operation open past the close of its day without an alarm before it',
  refunds: 'two refunds for one sale',
  given: 'a refund the terminal reports undone or not given',
  other: "another terminal's sale undone by this one",
  day: DAY_INVARIANT,
} as const;
const ALL = Object.values(INVARIANTS);

/** The invariants each operation must keep, but for those a known defect still breaks (`it.fails` below). */
function holds(op: keyof typeof OPERATIONS, known: readonly string[]): void {
  it('walks every timeline up to the bound', async () => {
    const r = await result(op);
    expect(r.timelines).toBeGreaterThan(4);
    expect(r.truncated).toBe(false);
  });
  it.each(ALL.filter((i) => !known.includes(i)))('never: %s', async (inv) => {
    expect(await broken(op, inv)).toBeUndefined();
  });
}

// Found by this family on 5147710 at 1 deviation: a confirmation whose 2xx body shows Status 13 (or 10) dead-lettered
// without recording what the host showed, so the day counted charged a sale the host holds nothing of.
describe('the explorer: card sale', () => {
  holds('card sale', []);
});

describe('the explorer: card sale read from the chip, FCX after the answer', () => {
  holds('card sale, chip (FCX)', []);
});

describe('the explorer: card sale read from a contactless chip, FCX after the answer', () => {
  holds('card sale, contactless chip (FCX)', []);
});

describe('the explorer: card sale read from the stripe after a chip failure (fallback)', () => {
  holds('card sale, fallback', []);
});

describe("the explorer: card sale with the merchant's day closed before it or between two of its steps", () => {
  holds("card sale, the merchant's day closed", []);
});

describe('the explorer: card void', () => {
  holds('card void', []);
});

describe('the explorer: card void read from the chip, FCX after the answer', () => {
  holds('card void, chip (FCX)', []);
});

describe('the explorer: Pix refund', () => {
  holds('Pix refund', []);
});

describe('the explorer: e-commerce QR sale', () => {
  holds('e-commerce QR sale', []);
});

describe('the explorer: wallet QR sale whose code the terminal made (qr.provider terminal)', () => {
  holds("wallet QR sale, the terminal's code", [INVARIANTS.charge]);
  // Found by this family (s10-money; an `it.fails` on 333e812): a wallet's payment the query host shows
  // late (the lag assumption, host-model.ts) was not found by the code's watch, which ended `expired` at
  // the code's end plus its margin, and the host confirmed the payment at the close. The watch now obeys
  // the visibility rule (rules/visibility.ts): the code awaits the host's close, shown so on the day report.
  it('a payment shown late after the code ended is found and undone (the watch obeys the visibility rule)', async () => {
    expect(await broken("wallet QR sale, the terminal's code", INVARIANTS.charge)).toBeUndefined();
  });
});

describe('the explorer: wallet QR void whose cancellation code the terminal made (qr.provider terminal)', () => {
  holds("wallet QR void, the terminal's code", []);
  // Found by this family on d917fc0: a cancellation the wallet applied while the code showed, which the
  // query host showed late, was not seen by the code's watch; the void ended `expired` at the code's end
  // plus its margin while the host held the void (confirmed at the close). The ended code is now watched
  // by the outbox (`void.code-watch`) under the one visibility rule, the amount held meanwhile.
  it('a cancellation shown late after the code ended is found: the void ends confirmed, never expired', async () => {
    expect(await broken("wallet QR void, the terminal's code", INVARIANTS.given)).toBeUndefined();
  });
});

describe('the explorer: the Pix charge (create, payment, cancel, expiry, a late payment)', () => {
  holds('Pix charge', []);
});

describe('the explorer: card-not-present sale (the engine, the sale table and the cnp.undo race)', () => {
  holds('card-not-present sale', []);
});

describe("the explorer: card sale under an order id another terminal's sale holds", () => {
  holds('card sale, order id shared', []);
  // Defect 9's rest (an `it.fails` on cfef2df): when our sale never reached the host, the query shows
  // only the other terminal's sale; the backend says so (`not-ours`) and the visibility rule ends the
  // race past the close and its window, never undoing by the order id.
  it('defect 9 (left): the undo race of a sale whose order id another terminal holds ends', async () => {
    expect(await broken('card sale, order id shared', INVARIANTS.open)).toBeUndefined();
  });
});
