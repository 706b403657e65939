import { describe, expect, it } from 'vitest';
import { attemptUndo } from '../../../../src/engine/outbox/undo-race.js';
import { attemptVoidUndo, type VoidUndoTask } from '../../../../src/engine/outbox/void.js';
import type { AcquirerDeliveryPort, SaleQuery, VoidUndoDelivery } from '../../../../src/engine/ports.js';
import type { UndoTask } from '../../../../src/engine/outbox/tasks.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';

/**
 * "The host may not show it yet", one rule for every operation (src/engine/rules/visibility.ts):
 * a not-found is never final before the close of the operation's own day (00:00 America/Sao_Paulo
 * = 03:00Z in November), and only after a window counted from that close. Both tests fail on
 * 285360d (issue 29, defects 7 and 1).
 */

const window = { processingWindowMs: 60_000 };

/** A sale host whose query answers in turn from a script; every undo decides nothing (a 4xx). */
function saleHost(answers: SaleQuery[]): AcquirerDeliveryPort {
  const host = new FakeAcquirer();
  for (const answer of answers) host.on('delivery.queryByOrderId').reply(answer);
  for (const undo of ['delivery.undo', 'delivery.undoByOrderId'] as const)
    host.on(undo).persist().reply({ action: 'retry', reason: 'HTTP 404' });
  return host.delivery;
}

describe('issue 29 defect 7: a sale sent at 23:59:50 whose answer never came', () => {
  const task: UndoTask = { merchantOrderId: '263320010359999', sentAt: '2026-11-23T02:59:50.000Z' };

  it('is not settled "nothing charged" two minutes past the close: it becomes visible at 00:05, confirmed → needs-refund', async () => {
    const host = saleHost([
      { kind: 'not-found' },
      { kind: 'not-found' },
      { kind: 'found', paymentId: 'p-late', state: 'confirmed', detail: 'Status 2, ConfirmationStatus 1' },
    ]);
    let r = await attemptUndo(host, task, new Date('2026-11-23T03:01:30Z'), window);
    expect(r.delivery.action).toBe('retry');
    r = await attemptUndo(host, r.payload ?? task, new Date('2026-11-23T03:02:00Z'), window);
    // 285360d: done, "not found 2 times after the close of the sale's day: nothing was charged".
    expect(r.delivery.action).toBe('retry');
    r = await attemptUndo(host, r.payload ?? task, new Date('2026-11-23T03:05:00Z'), window);
    expect(r.delivery.action).toBe('needs-refund');
  });

  it('"nothing charged" once the window after the close has passed and two queries agree', async () => {
    const host = saleHost([{ kind: 'not-found' }, { kind: 'not-found' }]);
    let r = await attemptUndo(host, task, new Date('2026-11-23T03:15:00Z'), window);
    expect(r.delivery.action).toBe('retry');
    r = await attemptUndo(host, r.payload ?? task, new Date('2026-11-23T03:15:10Z'), window);
    expect(r.delivery.action).toBe('done');
  });
});

/** A void host whose undo answers "no such void" (404 with a published not-found code) every time. */
function voidHost(): FakeAcquirer {
  const host = new FakeAcquirer();
  const notFound: VoidUndoDelivery = { action: 'retry', reason: 'HTTP 404 ReturnCode 307', notFound: true };
  for (const undo of ['voids.undoVoid', 'voids.undoVoidByMerchantVoidId'] as const)
    host.on(undo).persist().reply(notFound);
  return host;
}

describe("issue 29 defect 1: a void's undo race uses the sale's rule", () => {
  const task: VoidUndoTask = {
    merchantVoidId: '263320010360001',
    paymentId: 'p-1',
    sentAt: '2026-11-22T13:00:00.000Z',
  };

  it('two not-founds 75 s after sending settle nothing: the void may land late and be confirmed at the close', async () => {
    const host = voidHost();
    let r = await attemptVoidUndo(host.voids, task, new Date('2026-11-22T13:01:05Z'), window);
    r = await attemptVoidUndo(host.voids, r.payload ?? task, new Date('2026-11-22T13:01:15Z'), window);
    // 285360d: done, "void not found 2 times after the processing window: nothing was voided" (the amount released).
    expect(r.delivery.action).toBe('retry');
    expect(host.calls()).toHaveLength(2);
  });

  it('"nothing voided" only past the close of its day and the window after it, when two answers agree', async () => {
    const host = voidHost();
    let r = await attemptVoidUndo(host.voids, task, new Date('2026-11-23T02:59:00Z'), window);
    expect(r.delivery.action).toBe('retry');
    r = await attemptVoidUndo(host.voids, r.payload ?? task, new Date('2026-11-23T03:15:01Z'), window);
    expect(r.delivery.action).toBe('retry');
    r = await attemptVoidUndo(host.voids, r.payload ?? task, new Date('2026-11-23T03:15:30Z'), window);
    expect(r.delivery).toMatchObject({ action: 'done' });
    expect(r.delivery.reason).toMatch(/nothing was voided/);
  });
});
