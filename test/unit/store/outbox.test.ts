import { describe, expect, it } from 'vitest';
import { Journal, Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';

const tempStore = useTempStores();
const at = new Date('2026-11-22T13:00:00.000Z');

function store() {
  const db = tempStore();
  return { db, journal: new Journal(db), outbox: new Outbox(db) };
}

describe('outbox', () => {
  it('keeps one task per idempotency key and hands out due tasks soonest first', () => {
    const { db, outbox } = store();
    const later = new Date(at.getTime() + 60_000);
    const a = outbox.enqueue({
      operation: 'confirm',
      idempotencyKey: 'confirm:1',
      payload: { paymentId: 'p1' },
      at,
      nextTryAt: later,
    });
    const b = outbox.enqueue({
      operation: 'undo',
      idempotencyKey: 'undo:2',
      payload: { paymentId: 'p2' },
      at,
      deadlineAt: later,
    });
    const again = outbox.enqueue({
      operation: 'confirm',
      idempotencyKey: 'confirm:1',
      payload: { paymentId: 'other' },
      at,
    });
    expect(again.id).toBe(a.id);
    expect(again.payload).toEqual({ paymentId: 'p1' });
    expect(outbox.due(at).map((t) => t.id)).toEqual([b.id]);
    expect(outbox.due(later).map((t) => t.id)).toEqual([b.id, a.id]);
    expect(outbox.depth()).toEqual({ pending: 2, deadLetters: 0, oldestDeadline: later.toISOString() });

    outbox.failed(b.id, 'timeout', later);
    outbox.done(a.id, later);
    expect(outbox.due(later).map((t) => [t.id, t.attempts, t.lastError])).toEqual([[b.id, 1, 'timeout']]);
    outbox.deadLetter(b.id, 'ReturnCode 475: not allowed any more');
    expect(outbox.due(later)).toEqual([]);
    expect(outbox.depth()).toEqual({ pending: 0, deadLetters: 1, oldestDeadline: null });
    db.close();
  });
});
