import { afterEach, describe, expect, it } from 'vitest';
import { EcommercePixAdapter } from '../../../../src/acquirer/omni/pix.js';
import { createLogger } from '../../../../src/core/log/index.js';
import { OutboxForwarder } from '../../../../src/engine/outbox/forwarder.js';
import { attemptPix, type PixTask } from '../../../../src/engine/outbox/pix.js';
import { OUTBOX_OPERATIONS, idempotencyKey } from '../../../../src/engine/outbox/tasks.js';
import type { Delivery, PixStatusQuery } from '../../../../src/engine/ports.js';
import { Outbox, openTerminalDatabase, type OutboxTask } from '../../../../src/store/index.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { loopbackAcquirer, json, loopback, type Recorded } from '../../../helpers/loopback.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

/**
 * Issue 29 defect 3 and its loose end: a Pix refund is asked once. The manual keeps the charge at
 * `2 - Pago` until the refund is done (ecom:1781-1790) and the refund "não é uma operação
 * instantânea, podendo ser acatada ou não" (ecom:1927); its answer says which in `ReasonCode`
 * (ecom:1975-1979, 0 "Successful"; ecom:1948 "Lojista com saldo insuficiente para devolução").
 * Each test here fails on 285360d.
 */
const tempDir = useTempDirs();
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

const PID = '6f1d2c3b-4a59-4e68-8f7a-0b1c2d3e4f5a';
const paid: PixStatusQuery = { kind: 'found', status: 'paid', detail: '2' };

describe('a Pix refund is asked once', () => {
  it('while the charge still shows 2 after the refund was asked, no second refund is sent', async () => {
    const host = new FakeAcquirer();
    host.on('pix.status').persist().reply(paid);
    host.on('pix.void').persist().reply({ kind: 'accepted' });
    let task: PixTask = { merchantOrderId: '263320001000001', paymentId: PID };
    for (let i = 0; i < 5; i++) {
      const r = await attemptPix(host.pix!, task, 'refund', new Date('2026-11-28T15:00:00Z'));
      expect(r.delivery.action).toBe('retry');
      task = r.payload ?? task;
    }
    // 285360d: five refunds, one per attempt.
    expect(host.calledWith('pix.void')).toEqual([[PID]]);
  });

  it('the intent is saved before the refund leaves: a crash after it sends no second refund', async () => {
    const clock = new FakeClock('2026-11-28T15:00:00Z');
    const db = openTerminalDatabase(tempDir());
    const outbox = new Outbox(db);
    const key = idempotencyKey('pix-refund', '263320001000002');
    outbox.enqueue({
      operation: OUTBOX_OPERATIONS.pixRefund,
      idempotencyKey: key,
      payload: { merchantOrderId: '263320001000002', paymentId: PID },
      at: clock.now(),
    });
    const stored: Record<string, unknown>[] = [];
    const crashing = new FakeAcquirer();
    crashing.on('pix.status').persist().reply(paid);
    crashing
      .on('pix.void')
      .persist()
      .reply(() => {
        // What the database holds as the request leaves; then the terminal dies before the answer is recorded.
        stored.push({ ...(outbox.byKey(key)?.payload ?? {}) });
        throw new Error('SIGKILL');
      });
    const voids = (): string[] => crashing.calledWith('pix.void').map(([id]) => id);
    const settled: Delivery[] = [];
    // Only the Pix provider answers: any other call rejects (nothing scripted for it).
    const forwarder = (host: FakeAcquirer): OutboxForwarder =>
      new OutboxForwarder({
        db,
        outbox,
        port: host.delivery,
        pix: host.pix!,
        clock,
        log: createLogger({ level: 'silent' }),
        onSettled: (_t: OutboxTask, d: Delivery) => settled.push(d),
        undoRace: { processingWindowMs: 60_000 },
        random: () => 0,
      });
    await forwarder(crashing).runOnce();
    expect(voids()).toEqual([PID]);
    // 285360d: the payload as enqueued, nothing saying a refund may have left.
    expect(stored[0]?.refundAsking).toBe('2026-11-28T15:00:00.000Z');
    // After the restart, the charge still shows 2 (a refund in progress, or one that never left): never asked again.
    clock.advance(600_000);
    await forwarder(crashing).runOnce();
    expect(voids()).toEqual([PID]);
    expect(settled).toEqual([]);
    db.close();
  });

  it('a refund the provider refuses (ReasonCode not 0 in a 2xx) ends with `refused`, asked once, never counted as asked', async () => {
    const seen: string[] = [];
    const host = await loopback((req: Recorded, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.method === 'GET')
        return json(res, 200, {
          MerchantOrderId: '263320001000003',
          Payment: { PaymentId: PID, Status: 2, Amount: 1000 },
        });
      json(res, 200, { Status: 2, ReasonCode: 7, ReasonMessage: 'Lojista com saldo insuficiente para devolução' });
    });
    cleanup.push(host.close);
    const a = loopbackAcquirer(host.url, {}, { ecommerce: true });
    cleanup.push(() => a.close());
    const pix = new EcommercePixAdapter(a.ecommerce!);
    const r = await attemptPix(pix, { merchantOrderId: '263320001000003', paymentId: PID }, 'refund', new Date());
    // 285360d: retry, "refund asked" (any 2xx was an asked refund).
    expect(r.delivery).toMatchObject({ action: 'dead-letter', refused: true });
    expect(r.delivery.reason).toMatch(/saldo insuficiente/);
    expect(seen.filter((s) => s.startsWith('PUT'))).toHaveLength(1);
  });
});
