import { describe, expect, it } from 'vitest';
import type { LedgerReport, Ws15LedgerRow } from '../../../src/sandbox/index.js';
import type { CnpIntent } from '../../chaos/cnp-sales.js';
import { reconcileCnp, type CnpRow } from '../../chaos/reconcile-cnp.js';

/**
 * The chaos run's reconciliation of card-not-present sales can fail: each disagreement between a
 * journal and a host's ledger it must name, and a clean day it must pass.
 */
type Card = LedgerReport['cards'][number];
const card = (o: Partial<Card> & { merchantOrderId: string }): Card => ({
  paymentId: `p-${o.merchantOrderId}`,
  amount: 1000,
  status: 2,
  captured: 1000,
  voided: 0,
  charged: 1000,
  held: 0,
  captures: 1,
  ...o,
});
const ws15 = (o: Partial<Ws15LedgerRow> & { orderNumber: string }): Ws15LedgerRow => ({
  tid: `t-${o.orderNumber}`,
  affiliation: '1006993069',
  amount: 1000,
  status: 6,
  captured: 1000,
  cancelled: 0,
  charged: 1000,
  held: 0,
  ...o,
});
let next = 1;
const row = (merchantOrderId: string, state: string, data: Record<string, unknown> = {}, amount = 1000): CnpRow => ({
  id: next++,
  merchantOrderId,
  state,
  amount,
  data: JSON.stringify({ backend: 'ecommerce', ...data }),
  terminal: 'merchant-1',
});
const run = (o: { rows: CnpRow[]; cards?: Card[]; ws15?: Ws15LedgerRow[]; intents?: CnpIntent[] }) =>
  reconcileCnp({ rows: o.rows, cards: o.cards ?? [], ws15: o.ws15 ?? [], intents: o.intents ?? [] }).problems;

describe('the chaos run reconciles card-not-present sales with both hosts', () => {
  it('a clean day: each host state read as the journal says it', () => {
    expect(
      run({
        rows: [
          row('a', 'captured', { capturedAmount: 600, voidedAmount: 200 }),
          row('b', 'authorized'),
          row('c', 'voided'),
          row('d', 'declined'),
          row('e', 'undone'),
          row('f', 'failed'),
          row('w', 'captured', { backend: 'webservice15' }),
        ],
        cards: [
          card({ merchantOrderId: 'a', captured: 600, voided: 200, charged: 400 }),
          card({ merchantOrderId: 'b', status: 1, captured: 0, charged: 0, held: 1000, captures: 0 }),
          card({ merchantOrderId: 'c', status: 10, voided: 1000, charged: 0 }),
          card({ merchantOrderId: 'd', status: 3, captured: 0, charged: 0, captures: 0 }),
          card({ merchantOrderId: 'e', status: 10, voided: 1000, charged: 0 }),
        ],
        ws15: [ws15({ orderNumber: 'w' })],
      }),
    ).toEqual([]);
  });

  it('names what disagrees: lost, captured twice, voided vs captured, the amount, two sales, nothing at the host', () => {
    const problems = run({
      rows: [
        row('v', 'voided'),
        row('m', 'captured', { capturedAmount: 1000 }),
        row('x', 'captured'),
        row('t', 'captured'),
      ],
      cards: [
        card({ merchantOrderId: 'lost' }),
        card({ merchantOrderId: 'v' }),
        card({ merchantOrderId: 'm', voided: 300, charged: 700 }),
        card({ merchantOrderId: 't', captures: 2 }),
      ],
      ws15: [ws15({ orderNumber: 'm' })],
    });
    expect(problems).toEqual([
      expect.stringMatching(/^charged twice\? the host has 2 card-not-present sales for m/),
      expect.stringMatching(/^lost: ecommerce lost .*nothing in the journal/),
      expect.stringMatching(/v .* is captured at the host, voided in the journal/),
      expect.stringMatching(/m .*the host charges 700, the journal 1000/),
      expect.stringMatching(/t .*captured 2 times at the host/),
      expect.stringMatching(/webservice15 m .*names the backend ecommerce/),
      expect.stringMatching(/cnp x is captured in the journal, the host has nothing/),
    ]);
  });

  it('holds the cash register to what it was told: a capture or void answered 200, the same key', () => {
    const r = row('k', 'authorized');
    const intent: CnpIntent = {
      terminal: 'merchant-1',
      id: r.id,
      merchantOrderId: 'k',
      backend: 'ecommerce',
      plan: 'void',
      asked: [{ op: 'void', status: 200 }],
      replay: { status: 200, same: false },
    };
    const problems = run({
      rows: [r],
      cards: [card({ merchantOrderId: 'k', status: 1, captured: 0, charged: 0, held: 1000, captures: 0 })],
      intents: [intent],
    });
    expect(problems).toEqual([
      expect.stringMatching(/the create asked again with the same key answered another sale/),
      expect.stringMatching(/its void answered 200, the journal says authorized/),
    ]);
  });
});
