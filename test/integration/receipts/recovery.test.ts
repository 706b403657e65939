import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { EcommercePixAdapter } from '../../../src/acquirer/omni/pix.js';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import { systemClock } from '../../../src/core/clock.js';
import { PixEngine, type PixEvent } from '../../../src/engine/pix/engine.js';
import { QrEngine, type QrEvent } from '../../../src/engine/qr/engine.js';
import { SaleEngine, type SaleEvent } from '../../../src/engine/sale/engine.js';
import { Journal, MerchantOrderIds, Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';
import { log, startHarness, type Harness } from '../../helpers/sandbox.js';
import { TEST_EXPIRY_KEY } from '../../helpers/store.js';

/**
 * Recovery of a payment the journal shows in `printing` (the daemon died while the receipt was
 * printing), for the three kinds, on a real SQLite journal: attended, the cashier is asked
 * (receipt question, a deadline, nothing sent yet) and the answer moves it on; unattended, it is
 * undone (card, wallet QR) or refunded (Pix) through the outbox, without a question.
 */
const tempStore = useTempStores();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

type Ev = SaleEvent | QrEvent | PixEvent;

function terminal(attended: boolean) {
  const db = tempStore();
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const events: Ev[] = [];
  const common = {
    db,
    journal,
    outbox,
    orderIds: new MerchantOrderIds(db, { ordinal: 1, clock: systemClock }),
    receipt: new TextReceiptPrinter(),
    clock: systemClock,
    log,
    attended,
    ecrDecisionMs: 60_000,
    closeMarginMs: 60_000,
    onEvent: (e: Ev) => void events.push(e),
  };
  const delivery = new OmniDeliveryAdapter(h.acquirer.omni);
  const engines = {
    sale: new SaleEngine({
      expiryKey: TEST_EXPIRY_KEY,
      ...common,
      card: {
        readCard: () => Promise.reject(new Error('no card in recovery')),
        finishChip: () => Promise.reject(new Error('no card')),
        end: () => Promise.resolve(),
      },
      host: { authorize: () => Promise.resolve({ kind: 'not-sent' as const }) },
    }),
    qr: new QrEngine({ ...common, host: delivery, validityMs: 60_000, watchMarginMs: 1000, pollMs: 40 }),
    pix: new PixEngine({
      ...common,
      host: new EcommercePixAdapter(h.acquirer.ecommerce!),
      validityMs: 60_000,
      watchMarginMs: 1000,
      pollMs: 40,
    }),
  };
  /** A payment the daemon left in `printing`: approved, the receipt's bytes maybe out. */
  const leftPrinting = (kind: 'sale' | 'qr' | 'pix', n: number): number => {
    const merchantOrderId = `26326001000${n}`;
    const request =
      kind === 'pix'
        ? { amount: 1010, payer: { name: 'Maria da Silva', document: '52998224725' }, confirmation: 'auto' }
        : { amount: 1010, method: 'credit', installments: 1, interest: 'ByMerchant', confirmation: 'auto' };
    const data = {
      request,
      merchantOrderId,
      paymentId: `p-${n}`,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
      ...(kind === 'sale' ? { sentAt: new Date().toISOString() } : {}),
    };
    return journal.open({
      kind,
      merchantOrderId,
      state: 'printing',
      amount: 1010,
      data,
      input: 'print',
      at: new Date(),
    }).id;
  };
  return {
    journal,
    outbox,
    events,
    engines,
    leftPrinting,
    stop: () => Object.values(engines).forEach((e) => e.stop()),
  };
}

describe('recovery of a payment stopped in printing', () => {
  it('attended: the cashier is asked, with a deadline and nothing sent; yes moves on as printed, no undoes or refunds', async () => {
    const t = terminal(true);
    try {
      const ids = { sale: t.leftPrinting('sale', 1), qr: t.leftPrinting('qr', 2), pix: t.leftPrinting('pix', 3) };
      for (const kind of ['sale', 'qr', 'pix'] as const)
        expect(t.engines[kind].recover()).toEqual([{ id: ids[kind], from: 'printing', plan: 'printing' }]);
      await new Promise((r) => setTimeout(r, 10));
      for (const [kind, id] of Object.entries(ids)) {
        expect(t.journal.get(id)).toMatchObject({
          state: 'printing',
          data: { deadline: expect.any(String) as string },
        });
        expect(t.events).toContainEqual({ type: 'receipt-question', id });
        expect(t.outbox.byJournal(id), kind).toEqual([]);
        expect(t.journal.transitions(id).at(-1)?.input).toMatch(/^recovery: stopped while the receipt was printing/);
      }
      await t.engines.sale.receiptAnswer(ids.sale, true);
      await t.engines.qr.receiptAnswer(ids.qr, false);
      await t.engines.pix.receiptAnswer(ids.pix, false);
      expect(t.journal.get(ids.sale)).toMatchObject({ state: 'confirming', data: { receipt: 'printed' } });
      expect(t.outbox.byJournal(ids.sale).map((x) => x.operation)).toEqual(['sale.confirm']);
      expect(t.journal.get(ids.qr)).toMatchObject({
        state: 'undoing',
        data: { reason: 'the receipt did not come out' },
      });
      expect(t.outbox.byJournal(ids.qr).map((x) => x.operation)).toEqual(['sale.undo']);
      expect(t.journal.get(ids.pix)).toMatchObject({ state: 'refunding' });
      expect(t.outbox.byJournal(ids.pix).map((x) => x.operation)).toEqual(['pix.refund']);
    } finally {
      t.stop();
    }
  });

  it('unattended: undone (card, wallet QR) or refunded (Pix) at once through the outbox, no question', () => {
    const t = terminal(false);
    try {
      const ids = { sale: t.leftPrinting('sale', 4), qr: t.leftPrinting('qr', 5), pix: t.leftPrinting('pix', 6) };
      expect(t.engines.sale.recover()).toEqual([{ id: ids.sale, from: 'printing', plan: 'undoing' }]);
      expect(t.engines.qr.recover()).toEqual([{ id: ids.qr, from: 'printing', plan: 'undoing' }]);
      expect(t.engines.pix.recover()).toEqual([{ id: ids.pix, from: 'printing', plan: 'refunding' }]);
      expect(t.journal.get(ids.sale)).toMatchObject({
        state: 'undoing',
        data: { reason: 'stopped while the receipt was printing: nobody can confirm the customer got it' },
      });
      expect(t.journal.get(ids.qr)).toMatchObject({
        state: 'undoing',
        data: { reason: 'nobody can tell whether the receipt came out' },
      });
      expect(t.outbox.byJournal(ids.sale).map((x) => x.operation)).toEqual(['sale.undo']);
      expect(t.outbox.byJournal(ids.qr).map((x) => x.operation)).toEqual(['sale.undo']);
      expect(t.outbox.byJournal(ids.pix).map((x) => x.operation)).toEqual(['pix.refund']);
      expect(t.events.filter((e) => e.type === 'receipt-question')).toEqual([]);
    } finally {
      t.stop();
    }
  });
});
