import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EcommerceCardNotPresent, EcommerceCnpDelivery } from '../../../src/acquirer/index.js';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import { systemClock } from '../../../src/core/clock.js';
import { CnpEngine, type CnpEvent } from '../../../src/engine/cnp/engine.js';
import type { CnpPaymentRequest } from '../../../src/engine/cnp/types.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import { Journal, MerchantOrderIds, Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';
import { log, startHarness, type Harness } from '../../helpers/sandbox.js';

/**
 * Card-not-present sales through the engine on the strict sandbox's e-commerce card API: the row
 * journaled before the request, the answer decided by the rulebook's `sale` table, a lost answer
 * settled by the undo race on the card-not-present delivery port.
 */
const tempStore = useTempStores();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function terminal(timeoutMs = 5000) {
  const db = tempStore();
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const events: CnpEvent[] = [];
  const client = h.newAcquirer(timeoutMs).ecommerce!;
  const backend = new EcommerceCardNotPresent(client, { timeoutMs });
  const engine = new CnpEngine({
    db,
    journal,
    outbox,
    orderIds: new MerchantOrderIds(db, { ordinal: 1, clock: systemClock }),
    host: backend,
    receipt: new TextReceiptPrinter(),
    clock: systemClock,
    log,
    attended: true,
    ecrDecisionMs: 60_000,
    closeMarginMs: 60_000,
    onEvent: (e) => void events.push(e),
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: new OmniDeliveryAdapter(h.acquirer.omni),
    cnp: new EcommerceCnpDelivery(client, backend),
    clock: systemClock,
    log,
    onSettled: (t, d) => engine.settled(t, d),
    undoRace: { processingWindowMs: 1000 },
    backoff: { baseMs: 20, maxMs: 60, minMs: 10 },
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 50 && outbox.depth().pending > 0; i++) {
      await forwarder.runOnce();
      await new Promise((r) => setTimeout(r, 70));
    }
  };
  return { journal, outbox, engine, events, settle };
}

const card = (last: number) => ({
  number: `400000000000000${last}`,
  holder: 'Maria da Silva',
  expiry: '12/2030',
  securityCode: '123',
  brand: 'Visa',
});
const credit = (capture: boolean, amount = 7700): CnpPaymentRequest => ({
  amount,
  installments: 1,
  capture,
  method: 'credit',
});

describe('card-not-present sales through the engine, on the sandbox', () => {
  it('journaled in `sending` before the request leaves; captured at once: captured, the masked number kept', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(credit(true), card(1));
    expect(t.journal.get(entry.id)).toMatchObject({ kind: 'cnp', state: 'sending' });
    expect(t.events[0]).toMatchObject({ type: 'state', state: 'sending' });
    await done;
    const row = t.journal.get(entry.id)!;
    expect(row.state).toBe('captured');
    expect(row.data).toMatchObject({
      maskedNumber: expect.stringMatching(/^400000\*+0001$/),
      paymentId: expect.any(String),
    });
    expect(JSON.stringify(row.data)).not.toContain('4000000000000001');
  });

  it('a pre-authorization (Capture false): authorized, held at the host', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(credit(false), card(4));
    await done;
    expect(t.journal.get(entry.id)!.state).toBe('authorized');
  });

  it('denied (a card ending in 2: 05): declined, nothing queued', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(credit(true), card(2));
    await done;
    expect(t.journal.get(entry.id)!.state).toBe('declined');
    expect(t.outbox.depth().pending).toBe(0);
  });

  it('debit is refused by name before anything is sent: failed, nothing queued', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start({ ...credit(true), method: 'debit' }, card(1));
    await done;
    expect(t.journal.get(entry.id)).toMatchObject({
      state: 'failed',
      data: { reason: expect.stringContaining('debit') },
    });
    expect(t.outbox.depth().pending).toBe(0);
  });

  it('the answer lost (the host took it, the client timed out): undoing, then voided by the undo race', async () => {
    const t = terminal(1500);
    await h.fault('ecommerceSaleCreate', { drop: true });
    const { entry, done } = await t.engine.start(credit(true, 7730), card(1));
    await done;
    expect(t.journal.get(entry.id)!.state).toBe('undoing');
    await t.settle();
    expect(t.journal.get(entry.id)!.state).toBe('undone');
    const kinds = (await h.ledger()).entries
      .filter((e) => e.merchantOrderId === entry.merchantOrderId)
      .map((e) => e.kind);
    expect(kinds).toEqual(['card-captured', 'card-voided']);
  });
});
