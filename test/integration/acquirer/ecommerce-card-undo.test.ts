import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EcommerceCardNotPresent } from '../../../src/acquirer/ecommerce/backend.js';
import { EcommerceCnpDelivery } from '../../../src/acquirer/ecommerce/delivery.js';
import type { EcommerceClient } from '../../../src/acquirer/index.js';
import { attemptUndo, type UndoAttempt } from '../../../src/engine/outbox/undo-race.js';
import type { UndoTask } from '../../../src/engine/outbox/tasks.js';
import { nextOrderId, startHarness, type Harness } from '../../helpers/sandbox.js';

/**
 * The money rules of a sale without the card, through the engine's own code: a sale whose answer
 * was lost is settled by the undo race (`attemptUndo`, the rulebook's `sale.undo` table and its
 * visibility rule) on the ecommerce delivery port: the query by MerchantOrderId finds it, and what
 * the host shows pending or captured before the close is voided. Nothing here re-states a rule.
 */

let h: Harness;
let ec: EcommerceClient;
let port: EcommerceCnpDelivery;
let cnp: EcommerceCardNotPresent;
beforeAll(async () => {
  h = await startHarness();
  ec = h.acquirer.ecommerce as EcommerceClient;
  cnp = new EcommerceCardNotPresent(ec);
  port = new EcommerceCnpDelivery(ec, cnp);
});
afterAll(async () => {
  await h.close();
});

const OPTIONS = { processingWindowMs: 30_000 };

async function hostNow(): Promise<Date> {
  const r = await h.control('GET', '/sandbox/clock');
  return new Date((r.body as { now: string }).now);
}

/** Runs the race until it ends (a few attempts), carrying its payload as the outbox does. */
async function race(task: UndoTask): Promise<{ last: UndoAttempt; attempts: number }> {
  let t = task;
  for (let i = 1; i <= 5; i++) {
    const a = await attemptUndo(port, t, await hostNow(), OPTIONS);
    if (a.delivery.action !== 'retry') return { last: a, attempts: i };
    t = a.payload ?? t;
  }
  throw new Error('the race did not end in 5 attempts');
}

/** A sale sent and its answer dropped, as a timeout would: only the order id is known. */
async function lostSale(capture: boolean, last = 1): Promise<{ orderId: string; sentAt: string }> {
  const orderId = nextOrderId();
  const sentAt = (await hostNow()).toISOString();
  await cnp.sale({
    merchantOrderId: orderId,
    amountCents: 7700,
    installments: 1,
    capture,
    method: 'credit',
    card: { number: `400000000000000${last}`, holder: 'Teste Holder', expiry: '12/2030', brand: 'Visa' },
  });
  return { orderId, sentAt };
}

async function statusOf(orderId: string): Promise<number | undefined> {
  const list = await ec.salesByOrderId(orderId);
  const id = list.Payment.at(-1)?.PaymentId as string;
  return (await ec.getSale(id)).Payment.Status;
}

describe('the lost answer of a sale without the card: query by MerchantOrderId, void what is unknown', () => {
  it.for([true, false])('capture %s: found by order id, voided by its PaymentId (10)', async (capture) => {
    const { orderId, sentAt } = await lostSale(capture);
    const { last } = await race({ merchantOrderId: orderId, sentAt, amount: 7700 });
    expect(last.delivery).toMatchObject({ action: 'done' });
    expect(await statusOf(orderId)).toBe(10);
  });

  it('denied at the host: nothing charged, nothing voided', async () => {
    const { orderId, sentAt } = await lostSale(true, 2);
    const { last } = await race({ merchantOrderId: orderId, sentAt });
    expect(last.delivery.action).toBe('done');
    expect(last.delivery.reason).toMatch(/declined/);
    expect(await statusOf(orderId)).toBe(3);
  });

  it('never landed: not found is never final before the close of its day', async () => {
    const task = { merchantOrderId: nextOrderId(), sentAt: (await hostNow()).toISOString() };
    const a = await attemptUndo(port, task, await hostNow(), OPTIONS);
    expect(a.delivery.action).toBe('retry');
    expect(a.delivery.reason).toMatch(/never final before the close/);
  });

  it('captured and still so after the daily close: needs a refund (the rulebook, not a void)', async () => {
    const { orderId, sentAt } = await lostSale(true);
    await h.control('POST', '/sandbox/clock', { advanceMs: 36 * 3600_000 });
    const { last } = await race({ merchantOrderId: orderId, sentAt });
    expect(last.delivery.action).toBe('needs-refund');
    expect(await statusOf(orderId)).toBe(2);
  });

  it('a pre-authorization is confirmed by its capture; a captured sale needs none', async () => {
    const pre = await cnp.sale({
      merchantOrderId: nextOrderId(),
      amountCents: 1000,
      installments: 1,
      capture: false,
      method: 'credit',
      card: { number: '4000000000000001', holder: 'Teste Holder', expiry: '12/2030', brand: 'Visa' },
    });
    await expect(port.confirm(pre.paymentId as string)).resolves.toMatchObject({ action: 'done' });
    expect((await ec.getSale(pre.paymentId as string)).Payment.Status).toBe(2);
    await expect(port.confirm(pre.paymentId as string)).resolves.toMatchObject({
      action: 'done',
      reason: 'captured at the host',
    });
  });
});
