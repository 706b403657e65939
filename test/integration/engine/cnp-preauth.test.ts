import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EcommerceCardNotPresent, EcommerceCnpDelivery } from '../../../src/acquirer/index.js';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import type { Clock } from '../../../src/core/clock.js';
import { CnpEngine } from '../../../src/engine/cnp/engine.js';
import type { CnpPaymentRequest } from '../../../src/engine/cnp/types.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import { dayLine } from '../../../src/operations/day/index.js';
import { Journal, MerchantOrderIds, Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';
import { log, startHarness, type Harness } from '../../helpers/sandbox.js';

/**
 * A pre-authorization's life through the engine on the strict sandbox's e-commerce card API: its
 * capture (whole or in part, once, within 15 days: ecom:6072-6080) and its void (a pre-authorization
 * whole, ecom:6285; a captured sale in parts, each leaving Status 2, ecom:6313-6330), each journaled
 * before it leaves, and a lost answer settled by the query (`cnp.capture`, `cnp.void-part`) or the
 * sale's undo race (`cnp.undo`, a whole void).
 */
const tempStore = useTempStores();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function terminal(options: { timeoutMs?: number; clock?: Clock } = {}) {
  const timeoutMs = options.timeoutMs ?? 5000;
  const clock = options.clock ?? { now: () => new Date() };
  const db = tempStore();
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const client = h.newAcquirer(timeoutMs).ecommerce!;
  const backend = new EcommerceCardNotPresent(client, { timeoutMs });
  const engine = new CnpEngine({
    db,
    journal,
    outbox,
    orderIds: new MerchantOrderIds(db, { ordinal: 1, clock }),
    host: backend,
    receipt: new TextReceiptPrinter(),
    clock,
    log,
    attended: true,
    ecrDecisionMs: 60_000,
    closeMarginMs: 60_000,
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: new OmniDeliveryAdapter(h.acquirer.omni),
    cnp: new EcommerceCnpDelivery(client, backend),
    clock,
    log,
    onSettled: (t, d) => engine.settled(t, d),
    undoRace: { processingWindowMs: 1000 },
    backoff: { baseMs: 20, maxMs: 60, minMs: 10 },
  });
  const settle = async (passes = 50): Promise<void> => {
    for (let i = 0; i < passes && outbox.depth().pending > 0; i++) {
      await forwarder.runOnce();
      await new Promise((r) => setTimeout(r, 70));
    }
  };
  const preauth = async (amount: number): Promise<number> => {
    const { entry, done } = await engine.start(credit(amount), card);
    await done;
    expect(journal.get(entry.id)!.state).toBe('authorized');
    return entry.id;
  };
  const ledger = async (id: number): Promise<{ kind: string; amount: number }[]> => {
    const order = journal.get(id)!.merchantOrderId;
    return (
      (await h.ledger()).entries
        // What followed the authorization (its own entry, `card-authorized`, comes first in every case).
        .filter((e) => e.merchantOrderId === order && e.kind !== 'card-authorized')
        .map((e) => ({ kind: e.kind, amount: e.amount }))
    );
  };
  return { journal, outbox, engine, settle, preauth, ledger, client };
}

const card = {
  number: '4000000000000001',
  holder: 'Maria da Silva',
  expiry: '12/2030',
  securityCode: '123',
  brand: 'Visa',
};
const credit = (amount: number): CnpPaymentRequest => ({ amount, installments: 1, capture: false, method: 'credit' });

describe('a pre-authorization captured and voided through the engine, on the e-commerce sandbox', () => {
  it('captured in part (ecom:6078): captured with the part, and a second capture refused before sending', async () => {
    const t = terminal();
    const id = await t.preauth(7700);
    const r = await t.engine.capture(id, 5000);
    expect(r).toMatchObject({ outcome: 'done', entry: { state: 'captured', data: { capturedAmount: 5000 } } });
    expect(t.journal.get(id)!.data).not.toHaveProperty('change');
    await expect(t.engine.capture(id)).rejects.toMatchObject({ code: 'NOT_ALLOWED' });
    expect(await t.ledger(id)).toEqual([{ kind: 'card-captured', amount: 5000 }]);
  });

  it('captured whole; a capture above the authorized amount refused before sending', async () => {
    const t = terminal();
    const id = await t.preauth(7710);
    await expect(t.engine.capture(id, 7711)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(t.journal.get(id)!.state).toBe('authorized');
    const r = await t.engine.capture(id);
    expect(r.entry).toMatchObject({ state: 'captured', data: { capturedAmount: 7710 } });
  });

  it('a pre-authorization is voided whole only (ecom:6285): voided; a partial void refused before sending', async () => {
    const t = terminal();
    const id = await t.preauth(7720);
    await expect(t.engine.void(id, 100)).rejects.toMatchObject({ code: 'NOT_ALLOWED' });
    const r = await t.engine.void(id);
    expect(r).toMatchObject({ outcome: 'done', entry: { state: 'voided' } });
    expect((await t.ledger(id)).map((e) => e.kind)).toEqual(['card-voided']);
  });

  it('a captured sale voided in parts: Status 2 after a part (ecom:6313-6330), voided when nothing remains', async () => {
    const t = terminal();
    const id = await t.preauth(7730);
    await t.engine.capture(id, 6000);
    const part = await t.engine.void(id, 2500);
    expect(part.entry).toMatchObject({ state: 'captured', data: { capturedAmount: 6000, voidedAmount: 2500 } });
    await expect(t.engine.void(id, 3501)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const rest = await t.engine.void(id, 3500);
    expect(rest.entry).toMatchObject({ state: 'voided', data: { voidedAmount: 6000 } });
    expect(await t.ledger(id)).toEqual([
      { kind: 'card-captured', amount: 6000 },
      { kind: 'card-partly-voided', amount: -2500 },
      { kind: 'card-voided', amount: -3500 },
    ]);
  });

  it('past the 15 days (ecom:6072): the capture refused before sending', async () => {
    let offset = 0;
    const t = terminal({ clock: { now: () => new Date(Date.now() + offset) } });
    const id = await t.preauth(7740);
    offset = 15 * 86_400_000 + 60_000;
    await expect(t.engine.capture(id)).rejects.toMatchObject({
      code: 'NOT_ALLOWED',
      message: expect.stringContaining('ecom:6072'),
    });
    expect(t.journal.get(id)!.state).toBe('authorized');
  });

  it("the host refuses a capture (308): the row back to authorized, the host's words kept", async () => {
    const t = terminal();
    const id = await t.preauth(7750);
    await h.fault('ecommerceSaleCapture', { error: 308 });
    const r = await t.engine.capture(id);
    expect(r).toMatchObject({
      outcome: 'refused',
      entry: { state: 'authorized', data: { reason: expect.stringContaining('refused') } },
    });
    expect(t.outbox.depth().pending).toBe(0);
  });

  it('a capture in part whose answer was lost: capturing, settled by the query as captured, never twice', async () => {
    const t = terminal({ timeoutMs: 1500 });
    const id = await t.preauth(7760);
    await h.fault('ecommerceSaleCapture', { drop: true });
    const r = await t.engine.capture(id, 4000);
    expect(r).toMatchObject({ outcome: 'unknown', entry: { state: 'capturing' } });
    expect(t.outbox.depth().pending).toBe(1);
    await t.settle();
    expect(t.journal.get(id)).toMatchObject({ state: 'captured', data: { capturedAmount: 4000 } });
    expect(await t.ledger(id)).toEqual([{ kind: 'card-captured', amount: 4000 }]);
  });

  it('a capture lost before it reached the host: the query shows it authorized, captured again with the part asked', async () => {
    const t = terminal({ timeoutMs: 1500 });
    const id = await t.preauth(7770);
    await h.fault('ecommerceSaleCapture', { reset: 'before' });
    const r = await t.engine.capture(id, 3000);
    expect(r.entry.state).toBe('capturing');
    await t.settle();
    expect(t.journal.get(id)).toMatchObject({ state: 'captured', data: { capturedAmount: 3000 } });
    expect(await t.ledger(id)).toEqual([{ kind: 'card-captured', amount: 3000 }]);
  });

  it('a capture lost before it reached the host, the pre-authorization voided at the host meanwhile: a dead letter the day counts uncharged', async () => {
    const t = terminal({ timeoutMs: 1500 });
    const id = await t.preauth(7775);
    await h.fault('ecommerceSaleCapture', { reset: 'before' });
    expect((await t.engine.capture(id)).entry.state).toBe('capturing');
    // The hold released at the host before the query settles the capture (by the store's back office).
    const paymentId = t.journal.get(id)!.data.paymentId as string;
    await t.client.voidSale(paymentId);
    await t.settle();
    const row = t.journal.get(id)!;
    // Status 10 of a sale never captured: undone (acquirer/ecommerce/states.ts).
    expect(row).toMatchObject({ state: 'dead-letter', data: { hostShows: 'undone' } });
    // The host holds nothing: the day's line says so (operations/day/lines.ts, the one rule for dead letters).
    expect(dayLine(row)).toMatchObject({ outcome: 'undone', charged: 0 });
    // The ledger's void of a hold moves no money (nothing was captured).
    expect(await t.ledger(id)).toEqual([{ kind: 'card-voided', amount: 0 }]);
  });

  it('a whole void whose answer was lost: voiding, settled by the undo race as voided', async () => {
    const t = terminal({ timeoutMs: 1500 });
    const id = await t.preauth(7780);
    await t.engine.capture(id);
    await h.fault('ecommerceSaleVoid', { drop: true });
    const r = await t.engine.void(id);
    expect(r.entry.state).toBe('voiding');
    await t.settle();
    expect(t.journal.get(id)!.state).toBe('voided');
    expect((await t.ledger(id)).map((e) => e.kind)).toEqual(['card-captured', 'card-voided']);
  });

  it('a partial void whose answer was lost: settled by the amount the host shows voided, never sent twice', async () => {
    const t = terminal({ timeoutMs: 1500 });
    const id = await t.preauth(7790);
    await t.engine.capture(id);
    await h.fault('ecommerceSaleVoid', { drop: true });
    const r = await t.engine.void(id, 1790);
    expect(r.entry.state).toBe('voiding');
    await t.settle();
    expect(t.journal.get(id)).toMatchObject({ state: 'captured', data: { voidedAmount: 1790 } });
    expect((await t.ledger(id)).map((e) => e.kind)).toEqual(['card-captured', 'card-partly-voided']);
  });

  it('a partial void whose answer was lost, then the rest voided at the host: the query shows it voided whole, the row ends voided', async () => {
    const t = terminal({ timeoutMs: 1500 });
    const id = await t.preauth(7810);
    await t.engine.capture(id);
    await h.fault('ecommerceSaleVoid', { drop: true });
    expect((await t.engine.void(id, 810)).entry.state).toBe('voiding');
    // What remains voided elsewhere (the merchant's back office): the host shows Status 10 (ecom:7375).
    const paymentId = (t.journal.get(id)!.data as { paymentId: string }).paymentId;
    expect(await t.client.voidSale(paymentId, 7000)).toMatchObject({ Status: 10 });
    await t.settle();
    expect(t.journal.get(id)).toMatchObject({ state: 'voided', data: { voidedAmount: 7810 } });
    expect(t.outbox.depth().pending).toBe(0);
  });

  it('a partial void lost before it reached the host: not sent again; still open before the close of its day', async () => {
    const t = terminal({ timeoutMs: 1500 });
    const id = await t.preauth(7800);
    await t.engine.capture(id);
    await h.fault('ecommerceSaleVoid', { reset: 'before' });
    await t.engine.void(id, 800);
    await t.settle(10);
    expect(t.journal.get(id)!.state).toBe('voiding');
    expect(t.outbox.depth().pending).toBe(1);
    expect((await t.ledger(id)).map((e) => e.kind)).toEqual(['card-captured']);
  });
});
