import { describe, expect, it } from 'vitest';
import {
  ATTEMPTS,
  attemptTask,
  isOutboxOperation,
  type AttemptContext,
} from '../../../../src/engine/outbox/attempts.js';
import { OUTBOX_OPERATIONS } from '../../../../src/engine/outbox/tasks.js';
import type { Delivery } from '../../../../src/engine/ports.js';

/**
 * The outbox's registry of attempts (src/engine/outbox/attempts.ts): one attempt per operation
 * (a mapped type: an operation without one does not compile), each stored payload checked for
 * the fields its attempt needs before anything is sent.
 */
const done: Delivery = { action: 'done', reason: 'ok' };

function context(calls: string[], withOptional = true): AttemptContext {
  const record =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push(`${name} ${args.filter((a) => typeof a === 'string').join(' ')}`);
      return Promise.resolve(done);
    };
  return {
    port: {
      confirm: record('confirm'),
      undo: record('undo'),
      undoByOrderId: record('undoByOrderId'),
      queryByOrderId: () => Promise.resolve({ kind: 'not-found' }),
    },
    ...(withOptional
      ? {
          pix: {
            status: () => Promise.resolve({ kind: 'found', status: 'refunded' }),
            void: () => Promise.resolve({ kind: 'accepted' }),
          },
          voids: {
            confirmVoid: record('confirmVoid'),
            undoVoid: record('undoVoid'),
            undoVoidByMerchantVoidId: record('undoVoidByMerchantVoidId'),
          },
        }
      : {}),
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
    const calls: string[] = [];
    const ctx = context(calls);
    expect((await attemptTask('sale.confirm', { merchantOrderId: 'o-1', paymentId: 'p-1' }, ctx)).delivery).toEqual(
      done,
    );
    expect(
      (await attemptTask('void.confirm', { merchantVoidId: 'v-1', paymentId: 'p-1', voidId: 'vid-1' }, ctx)).delivery,
    ).toEqual(done);
    expect(calls).toEqual(['confirm p-1', 'confirmVoid p-1 vid-1']);
  });

  it('a stored payload without what its attempt needs is dead-lettered, nothing sent', async () => {
    const calls: string[] = [];
    const ctx = context(calls);
    expect((await attemptTask('sale.confirm', { merchantOrderId: 'o-1' }, ctx)).delivery.action).toBe('dead-letter');
    expect((await attemptTask('void.confirm', { merchantVoidId: 'v-1', paymentId: 'p-1' }, ctx)).delivery.action).toBe(
      'dead-letter',
    );
    expect((await attemptTask('qr.watch', { merchantOrderId: 'o-2', until: 42 }, ctx)).delivery.action).toBe(
      'dead-letter',
    );
    expect(calls).toEqual([]);
  });

  it('a Pix or void task without its port configured is dead-lettered as before (unknown operation)', async () => {
    const ctx = context([], false);
    expect((await attemptTask('pix.refund', { merchantOrderId: 'o-3', paymentId: 'p-3' }, ctx)).delivery).toEqual({
      action: 'dead-letter',
      reason: 'unknown operation pix.refund',
    });
    expect((await attemptTask('void.undo', { merchantVoidId: 'v-3', paymentId: 'p-3' }, ctx)).delivery.action).toBe(
      'dead-letter',
    );
  });
});
