import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attemptWatch, type WatchTask } from '../../../src/engine/outbox/watch.js';
import type { AcquirerDeliveryPort, Delivery, SaleQuery } from '../../../src/engine/ports.js';

/**
 * attemptWatch (src/engine/outbox/watch.ts) moves money: after a wallet QR sale ended unpaid it
 * looks for a late payment and undoes it. Every answer the query can give → the decision; the
 * ones that prove nothing (unknown, not found yet, found without a PaymentId) lead to another
 * query, never to `done` or an undo.
 */
const task: WatchTask = { merchantOrderId: '0001-000042', until: '2026-11-25T12:00:00.000Z' };
const BEFORE = new Date('2026-11-25T11:59:59.999Z');
const AT = new Date('2026-11-25T12:00:00.000Z');
const AFTER = new Date('2026-11-25T12:00:01.000Z');

/** A host that answers the query as told and records every undo it is asked. */
function host(
  query: SaleQuery,
  undo: Delivery = { action: 'done', reason: 'undone' },
): AcquirerDeliveryPort & { undos: string[]; queries: string[] } {
  const undos: string[] = [];
  const queries: string[] = [];
  return {
    undos,
    queries,
    confirm: () => Promise.reject(new Error('a watch never confirms')),
    undo: (paymentId) => {
      undos.push(paymentId);
      return Promise.resolve(undo);
    },
    undoByOrderId: () => Promise.reject(new Error('a watch never undoes by order id')),
    queryByOrderId: (id) => {
      queries.push(id);
      return Promise.resolve(query);
    },
  };
}

const PID = '9b3c5a0e-1f2d-4c3b-8a79-0f1e2d3c4b5a';

type Row = [string, SaleQuery, Date, Delivery['action'], boolean /* undo asked */, boolean /* late */];
const TABLE: Row[] = [
  [
    'the query failed (host down, 5xx, timeout): query again',
    { kind: 'unknown', reason: 'HTTP 503' },
    AFTER,
    'retry',
    false,
    false,
  ],
  ['not found before the code ended: query again', { kind: 'not-found' }, BEFORE, 'retry', false, false],
  ['not found once the code ended: done, nothing paid', { kind: 'not-found' }, AT, 'done', false, false],
  ['not found well after: done', { kind: 'not-found' }, AFTER, 'done', false, false],
  [
    'found, already undone (ConfirmationStatus 2): done',
    { kind: 'found', paymentId: PID, status: 2, confirmationStatus: 2 },
    BEFORE,
    'done',
    false,
    false,
  ],
  ['found denied (Status 3): done', { kind: 'found', paymentId: PID, status: 3 }, BEFORE, 'done', false, false],
  ['found cancelled (Status 10): done', { kind: 'found', paymentId: PID, status: 10 }, BEFORE, 'done', false, false],
  ['found aborted (Status 13): done', { kind: 'found', paymentId: PID, status: 13 }, BEFORE, 'done', false, false],
  [
    'found cancelled although once confirmed (Status 10, ConfirmationStatus 1): done, nothing charged',
    { kind: 'found', paymentId: PID, status: 10, confirmationStatus: 1 },
    BEFORE,
    'done',
    false,
    false,
  ],
  [
    'found confirmed (ConfirmationStatus 1): the undo cannot take it back, a refund is needed',
    { kind: 'found', paymentId: PID, status: 2, confirmationStatus: 1 },
    BEFORE,
    'needs-refund',
    false,
    false,
  ],
  [
    'found paid and pending without a PaymentId: query again (nothing to undo by)',
    { kind: 'found', status: 2, confirmationStatus: 0 },
    AFTER,
    'retry',
    false,
    false,
  ],
  [
    'found paid and pending (Status 2, ConfirmationStatus 0): undone, late',
    { kind: 'found', paymentId: PID, status: 2, confirmationStatus: 0 },
    BEFORE,
    'done',
    true,
    true,
  ],
  [
    'found paid, no confirmation field: undone, late',
    { kind: 'found', paymentId: PID, status: 2 },
    AFTER,
    'done',
    true,
    true,
  ],
  [
    'found captured (e-commerce QR sale, no confirmation of its own): undone, late',
    { kind: 'found', paymentId: PID, status: 2, captured: true },
    BEFORE,
    'done',
    true,
    true,
  ],
];

describe('attemptWatch: every query answer → the decision', () => {
  it.each(TABLE)('%s', async (_name, query, now, action, undone, late) => {
    const h = host(query);
    const d = await attemptWatch(h, task, now);
    expect(d.action).toBe(action);
    expect(h.queries).toEqual([task.merchantOrderId]);
    expect(h.undos).toEqual(undone ? [PID] : []);
    expect(d.late === true).toBe(late);
  });

  it.each<[string, Delivery]>([
    ['the undo is unknown (lost exchange): query and undo again', { action: 'retry', reason: 'undo: HTTP 504' }],
    ['the undo is dead-lettered: passed on, not called late', { action: 'dead-letter', reason: 'undo refused' }],
    [
      'the undo finds it confirmed meanwhile: a refund is needed',
      { action: 'needs-refund', reason: 'ConfirmationStatus 1' },
    ],
  ])('a late payment whose undo does not settle — %s', async (_name, undo) => {
    const h = host({ kind: 'found', paymentId: PID, status: 2, confirmationStatus: 0 }, undo);
    const d = await attemptWatch(h, task, BEFORE);
    expect(d).toEqual(undo);
    expect(h.undos).toEqual([PID]);
  });

  it('never undoes without a found, unconfirmed, undecided sale with a PaymentId; never done while a found payment stands (1000 runs)', async () => {
    const query = fc.oneof(
      fc.record({ kind: fc.constant('unknown' as const), reason: fc.string() }),
      fc.constant({ kind: 'not-found' as const }),
      fc.record(
        {
          kind: fc.constant('found' as const),
          paymentId: fc.constantFrom(PID, ''),
          status: fc.integer({ min: 0, max: 20 }),
          confirmationStatus: fc.integer({ min: 0, max: 3 }),
          captured: fc.boolean(),
        },
        { requiredKeys: ['kind'] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(query, fc.constantFrom(BEFORE, AT, AFTER), async (q, now) => {
        const h = host(q);
        const d = await attemptWatch(h, task, now);
        const found = q.kind === 'found' ? q : undefined;
        const final =
          found &&
          (found.confirmationStatus === 2 ||
            found.confirmationStatus === 1 ||
            [3, 10, 13].includes(found.status ?? -1));
        if (h.undos.length) expect(found && !final && found.paymentId).toBeTruthy();
        const nothingCharged = found && (found.confirmationStatus === 2 || [3, 10, 13].includes(found.status ?? -1));
        if (d.action === 'done' && !d.late) expect(q.kind === 'not-found' ? now >= AT : nothingCharged).toBeTruthy();
        if (q.kind === 'unknown') expect(d.action).toBe('retry');
      }),
      { numRuns: 1000 },
    );
  });
});
