import { afterEach, describe, expect, it } from 'vitest';
import { EcommerceQrAdapter, routeQrDelivery } from '../../../../src/acquirer/omni/ecommerce-qr.js';
import { attemptUndo } from '../../../../src/engine/outbox/undo-race.js';
import { attemptWatch } from '../../../../src/engine/outbox/watch.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';
import { loopbackAcquirer, json, loopback, type Recorded } from '../../../helpers/loopback.js';

/**
 * Issue 29 defects 2 and 9 (the QR watch's part). Each test fails on 285360d.
 * - An e-commerce QR sale is made with `Capture: true` and stays `Status 12` until a wallet pays it
 *   (ecom:2584); the code's validity at the host is not published (qr:355). When the terminal stops
 *   showing it, the sale is voided at the host (`PUT /1/sales/{PaymentId}/void`, ecom:1952) and
 *   watched until the host shows 10.
 * - The watch undoes a sale found by order id only when it is ours: it asks with the sale's amount
 *   (the omni adapter then checks terminal, merchant and amount), through the QR router too.
 */
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

const PID = '5d7e8fd3-70b6-4a88-9660-e064d72fdcdd';
const ORDER = '263320001000010';
const VISIBILITY = { processingWindowMs: 60_000 };

describe('issue 29 defect 2: an e-commerce QR code the terminal stopped showing', () => {
  it('is voided at the host and watched until the host shows 10, even past the watch', async () => {
    let status = 12;
    const seen: string[] = [];
    const host = await loopback((req: Recorded, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.method === 'PUT') {
        status = 10;
        return json(res, 200, { Status: 10, ReasonCode: 0, ReasonMessage: 'Successful', ReturnCode: '0' });
      }
      json(res, 200, {
        MerchantOrderId: ORDER,
        Payment: { PaymentId: PID, Type: 'qrcode', Status: status, Amount: 2500 },
      });
    });
    cleanup.push(host.close);
    const a = loopbackAcquirer(host.url, { ecommerceQueryUrl: host.url }, { ecommerce: true });
    cleanup.push(() => a.close());
    const adapter = new EcommerceQrAdapter(a.ecommerce!, (id) => (id === ORDER ? PID : undefined));
    const r = await attemptWatch(
      adapter,
      { merchantOrderId: ORDER, until: '2026-11-28T12:00:00Z' },
      new Date('2026-11-28T12:05:00Z'),
      VISIBILITY,
    );
    // 285360d: done ("no payment before the code ended") with the sale still payable (12) at the host.
    expect(seen).toContain(`PUT /1/sales/${PID}/void`);
    expect(status).toBe(10);
    expect(r.delivery.action).toBe('done');
    expect(r.payload?.hostCancelled).toBe(true);
  });

  it('a void the host does not take is tried again: never done while the host shows 12', async () => {
    const host = await loopback((req: Recorded, res) => {
      if (req.method === 'PUT') return json(res, 503, [{ Code: 0, Message: 'Internal error' }]);
      json(res, 200, { MerchantOrderId: ORDER, Payment: { PaymentId: PID, Type: 'qrcode', Status: 12, Amount: 2500 } });
    });
    cleanup.push(host.close);
    const a = loopbackAcquirer(host.url, { ecommerceQueryUrl: host.url }, { ecommerce: true });
    cleanup.push(() => a.close());
    const adapter = new EcommerceQrAdapter(a.ecommerce!, () => PID);
    const r = await attemptWatch(
      adapter,
      { merchantOrderId: ORDER, until: '2026-11-28T12:00:00Z' },
      new Date('2026-11-28T13:00:00Z'),
      VISIBILITY,
    );
    expect(r.delivery.action).toBe('retry');
  });
});

describe('issue 29 defect 9: the undo race checks ownership before any undo by order id', () => {
  it('a sale under our order id that is not ours (the query cannot say it is ours) gets no undo by order id', async () => {
    const host = new FakeAcquirer();
    host
      .on('delivery.queryByOrderId')
      .persist()
      .reply({ kind: 'unknown', reason: 'a sale under order id that is not ours: TerminalId' });
    for (const undo of ['delivery.undo', 'delivery.undoByOrderId'] as const)
      host.on(undo).persist().reply({ action: 'retry', reason: 'x' });
    const task = { merchantOrderId: ORDER, sentAt: '2026-11-28T15:00:00.000Z', amount: 2500 };
    const r = await attemptUndo(host.delivery, task, new Date('2026-11-28T15:00:30Z'), { processingWindowMs: 60_000 });
    expect(r.delivery.action).toBe('retry');
    // 285360d: ['undo-order …', 'query …']: the other terminal's sale undone by order id before any check.
    expect(host.calls()).toEqual(['delivery.queryByOrderId']);
    expect(host.calledWith('delivery.queryByOrderId').map(([id]) => id)).toEqual([ORDER]);
  });
});

describe('issue 29 defect 9: the QR watch checks ownership before it undoes', () => {
  it('asks the query with the sale amount, through the QR router too', async () => {
    const host = new FakeAcquirer();
    host.on('delivery.queryByOrderId').persist().reply({ kind: 'not-found' });
    const card = host.delivery;
    const routed = routeQrDelivery(card, card, { order: () => false, payment: () => false });
    const task = { merchantOrderId: ORDER, until: '2026-11-28T12:00:00Z', amount: 2500 };
    await attemptWatch(routed, task, new Date('2026-11-28T11:00:00Z'), VISIBILITY);
    // 285360d: the watch asked without the amount, and the router dropped it: any sale under the order id was undone.
    expect(host.calledWith('delivery.queryByOrderId').map(([, e]) => e)).toEqual([{ amount: 2500 }]);
  });
});
