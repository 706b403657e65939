import { describe, expect, it } from 'vitest';
import {
  ATTEMPTS,
  attemptTask,
  isOutboxOperation,
  type AttemptContext,
} from '../../../../src/engine/outbox/attempts.js';
import { OUTBOX_OPERATIONS } from '../../../../src/engine/outbox/tasks.js';
import type { Delivery } from '../../../../src/engine/ports.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';

/**
 * The outbox's registry of attempts (src/engine/outbox/attempts.ts): one attempt per operation
 * (a mapped type: an operation without one does not compile), each stored payload checked for
 * the fields its attempt needs before anything is sent.
 */
const done: Delivery = { action: 'done', reason: 'ok' };

/** A host that delivers everything asked and shows no sale; its Pix shows every charge refunded. */
function acceptingHost(): FakeAcquirer {
  const host = new FakeAcquirer().deliversEverything(done);
  host.on('pix.status').persist().reply({ kind: 'found', status: 'refunded' });
  host.on('pix.void').persist().reply({ kind: 'accepted' });
  return host;
}

/** What was sent, with its ids (`delivery.confirm p-1`); queries included. */
const sent = (host: FakeAcquirer): string[] =>
  host.history.map((c) => `${c.name} ${c.args.filter((a) => typeof a === 'string').join(' ')}`);

function context(host: FakeAcquirer, withOptional = true): AttemptContext {
  return {
    port: host.delivery,
    ...(withOptional ? { pix: host.pix, voids: host.voids } : {}),
    undoRace: { processingWindowMs: 60_000 },
    now: new Date('2026-11-25T12:00:00Z'),
  };
}

describe('the outbox registry of attempts', () => {
  it('has one attempt per operation, and knows only those', () => {
    expect(Object.keys(ATTEMPTS).sort()).toEqual(Object.values(OUTBOX_OPERATIONS).sort());
    expect(isOutboxOperation('sale.confirm')).toBe(true);
    expect(isOutboxOperation('sale.refund')).toBe(false);
  });

  it('sends a confirm and a void confirm with the stored ids', async () => {
    const host = acceptingHost();
    const ctx = context(host);
    expect((await attemptTask('sale.confirm', { merchantOrderId: 'o-1', paymentId: 'p-1' }, ctx)).delivery).toEqual(
      done,
    );
    expect(
      (await attemptTask('void.confirm', { merchantVoidId: 'v-1', paymentId: 'p-1', voidId: 'vid-1' }, ctx)).delivery,
    ).toEqual(done);
    expect(sent(host)).toEqual(['delivery.confirm p-1', 'voids.confirmVoid p-1 vid-1']);
  });

  it('a stored payload without what its attempt needs is dead-lettered, nothing sent', async () => {
    const host = acceptingHost();
    const ctx = context(host);
    expect((await attemptTask('sale.confirm', { merchantOrderId: 'o-1' }, ctx)).delivery.action).toBe('dead-letter');
    expect((await attemptTask('void.confirm', { merchantVoidId: 'v-1', paymentId: 'p-1' }, ctx)).delivery.action).toBe(
      'dead-letter',
    );
    expect((await attemptTask('qr.watch', { merchantOrderId: 'o-2', until: 42 }, ctx)).delivery.action).toBe(
      'dead-letter',
    );
    expect(sent(host)).toEqual([]);
  });

  it('a Pix or void task without its port configured is dead-lettered as before (unknown operation)', async () => {
    const ctx = context(acceptingHost(), false);
    expect((await attemptTask('pix.refund', { merchantOrderId: 'o-3', paymentId: 'p-3' }, ctx)).delivery).toEqual({
      action: 'dead-letter',
      reason: 'unknown operation pix.refund',
    });
    expect((await attemptTask('void.undo', { merchantVoidId: 'v-3', paymentId: 'p-3' }, ctx)).delivery.action).toBe(
      'dead-letter',
    );
  });
});
