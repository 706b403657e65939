import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { EcommercePixAdapter } from '../../../src/acquirer/omni/pix.js';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import { systemClock } from '../../../src/core/clock.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import { PixEngine, type PixEvent } from '../../../src/engine/pix/engine.js';
import { parsePix } from '../../../src/qr/index.js';
import { Journal, MerchantOrderIds, Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';
import { log, startHarness, type Harness } from '../../helpers/sandbox.js';

const tempStore = useTempStores();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function terminal() {
  const db = tempStore();
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const events: PixEvent[] = [];
  const pix = new EcommercePixAdapter(h.acquirer.ecommerce!);
  const engine = new PixEngine({
    db,
    journal,
    outbox,
    orderIds: new MerchantOrderIds(db, { ordinal: 1, clock: systemClock }),
    host: pix,
    receipt: new TextReceiptPrinter(),
    clock: systemClock,
    log,
    attended: true,
    ecrDecisionMs: 60_000,
    closeMarginMs: 60_000,
    validityMs: 60_000,
    watchMarginMs: 1000,
    pollMs: 40,
    onEvent: (e) => void events.push(e),
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: new OmniDeliveryAdapter(h.acquirer.omni),
    pix,
    clock: systemClock,
    log,
    onSettled: (t, d) => engine.settled(t, d),
    undoRace: { processingWindowMs: 1000 },
    backoff: { baseMs: 20, maxMs: 60, minMs: 10 },
  });
  const pass = async (n = 1): Promise<void> => {
    for (let i = 0; i < n; i++) {
      await forwarder.runOnce();
      await new Promise((r) => setTimeout(r, 70));
    }
  };
  return { db, journal, outbox, engine, events, pass };
}

const payer = { name: 'Maria da Silva', document: '529.982.247-25' };

async function shown(events: PixEvent[]): Promise<Extract<PixEvent, { type: 'qr' }>> {
  for (let i = 0; i < 1000; i++) {
    const e = events.find((x) => x.type === 'qr');
    if (e) return e;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no Pix code shown');
}

describe('Pix sales on the e-commerce API of the strict sandbox', () => {
  it('created with the payer, its BR Code shown, paid, receipt printed: confirmed', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start({ amount: 1500, payer, confirmation: 'auto' });
    const code = await shown(t.events);
    expect(parsePix(code.qrCode)).toMatchObject({ transactionAmount: '15.00', type: 'dynamic' });
    const paymentId = (t.journal.get(entry.id)!.data as { paymentId: string }).paymentId;
    expect((await h.control('POST', `/sandbox/pix/${paymentId}/pay`)).status).toBe(200);
    await done;
    expect(t.journal.transitions(entry.id).map((x) => x.to)).toEqual([
      'creating',
      'showing',
      'approved',
      'printing',
      'confirmed',
    ]);
    t.db.close();
  });

  it('paid after the cashier cancelled: the charge is refunded (pending until the provider approves) and an alarm raised', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start({ amount: 1600, payer, confirmation: 'auto' });
    await shown(t.events);
    await t.engine.cancel(entry.id, 'ecr');
    await done;
    await t.pass(2);
    expect(t.journal.get(entry.id)?.state).toBe('cancelling');
    const paymentId = (t.journal.get(entry.id)!.data as { paymentId: string }).paymentId;
    expect((await h.control('POST', `/sandbox/pix/${paymentId}/pay`)).status).toBe(200);
    await t.pass(3);
    expect(t.outbox.open()[0]?.payload).toMatchObject({ refundAsked: true, late: true });
    await h.control('POST', '/sandbox/clock', { advanceMs: 61_000 });
    await t.pass(3);
    expect(t.journal.get(entry.id)?.state).toBe('refunded');
    expect(t.events.some((e) => e.type === 'alarm' && e.code === 'PIX_LATE_PAYMENT')).toBe(true);
    const ledger = await h.ledger();
    expect(ledger.problems.some((p) => p.kind === 'late-payment' && p.paymentId === paymentId)).toBe(true);
    t.db.close();
  });

  it('a payer document that is not a CPF or CNPJ is refused by the host: failed, nothing shown', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start({
      amount: 1700,
      payer: { name: 'X', document: '123' },
      confirmation: 'auto',
    });
    await done;
    expect(t.journal.get(entry.id)?.state).toBe('failed');
    expect(t.events.some((e) => e.type === 'qr')).toBe(false);
    t.db.close();
  });
});
