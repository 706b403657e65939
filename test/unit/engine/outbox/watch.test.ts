import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attemptWatch, type WatchTask } from '../../../../src/engine/outbox/watch.js';
import type { Delivery, HostSaleState, SaleQuery } from '../../../../src/engine/ports.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';

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
/** The close of the code's day (00:00 in São Paulo, 03:00 UTC), and past it and its window (15 min by default). */
const CLOSE = new Date('2026-11-26T03:00:00.000Z');
const PAST = new Date('2026-11-26T03:15:00.000Z');
const VISIBILITY = { processingWindowMs: 60_000 };

/** A host that answers the query as told and every undo with `undo`; a confirm or an undo by order id fails the test. */
function host(query: SaleQuery, undo: Delivery = { action: 'done', reason: 'undone' }): FakeAcquirer {
  const fake = new FakeAcquirer();
  fake.on('delivery.queryByOrderId').persist().reply(query);
  fake.on('delivery.undo').persist().reply(undo);
  return fake;
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
  [
    "not found once the code ended: query again, awaiting the host's close",
    { kind: 'not-found' },
    AT,
    'retry',
    false,
    false,
  ],
  [
    'not found after the code, before the close of its day: query again',
    { kind: 'not-found' },
    AFTER,
    'retry',
    false,
    false,
  ],
  [
    'not found at the close, inside the window after it: query again',
    { kind: 'not-found' },
    CLOSE,
    'retry',
    false,
    false,
  ],
  ['found undone: done', { kind: 'found', paymentId: PID, state: 'undone' }, BEFORE, 'done', false, false],
  ['found declined: done', { kind: 'found', paymentId: PID, state: 'declined' }, BEFORE, 'done', false, false],
  [
    'found cancelled (voided): done',
    { kind: 'found', paymentId: PID, state: 'cancelled' },
    BEFORE,
    'done',
    false,
    false,
  ],
  [
    'found confirmed: the undo cannot take it back, a refund is needed',
    { kind: 'found', paymentId: PID, state: 'confirmed' },
    BEFORE,
    'needs-refund',
    false,
    false,
  ],
  [
    'found approved without a PaymentId: query again (nothing to undo by)',
    { kind: 'found', state: 'approved' },
    AFTER,
    'retry',
    false,
    false,
  ],
  [
    'found approved (paid, not confirmed): undone, late',
    { kind: 'found', paymentId: PID, state: 'approved' },
    BEFORE,
    'done',
    true,
    true,
  ],
  ['found pending: undone, late', { kind: 'found', paymentId: PID, state: 'pending' }, AFTER, 'done', true, true],
  [
    'found in a state the backend cannot read: undone like a pending one, late',
    { kind: 'found', paymentId: PID, state: 'unknown', detail: 'Status 11' },
    AFTER,
    'done',
    true,
    true,
  ],
  [
    'found captured (e-commerce QR sale, no confirmation of its own): undone, late',
    { kind: 'found', paymentId: PID, state: 'approved', captured: true },
    BEFORE,
    'done',
    true,
    true,
  ],
];

describe('attemptWatch: every query answer → the decision', () => {
  it.each(TABLE)('%s', async (_name, query, now, action, undone, late) => {
    const h = host(query);
    const d = (await attemptWatch(h.delivery, task, now, VISIBILITY)).delivery;
    expect(d.action).toBe(action);
    expect(h.calledWith('delivery.queryByOrderId').map(([id]) => id)).toEqual([task.merchantOrderId]);
    expect(h.calledWith('delivery.undo').map(([id]) => id)).toEqual(undone ? [PID] : []);
    expect(d.late === true).toBe(late);
    if (late) expect(d.payment).toEqual({ paymentId: PID });
  });

  it.each<[string, Delivery]>([
    ['the undo is unknown (lost exchange): query and undo again', { action: 'retry', reason: 'undo: HTTP 504' }],
    ['the undo is dead-lettered: passed on, not called late', { action: 'dead-letter', reason: 'undo refused' }],
    [
      'the undo finds it confirmed meanwhile: a refund is needed',
      { action: 'needs-refund', reason: 'ConfirmationStatus 1' },
    ],
  ])('a late payment whose undo does not settle — %s', async (_name, undo) => {
    const h = host({ kind: 'found', paymentId: PID, state: 'approved' }, undo);
    const d = (await attemptWatch(h.delivery, task, BEFORE, VISIBILITY)).delivery;
    // The payment found is recorded whatever its undo came to (the sale's PaymentId, as one seen on time).
    expect(d).toEqual({ ...undo, payment: { paymentId: PID } });
    expect(h.calledWith('delivery.undo').map(([id]) => id)).toEqual([PID]);
  });

  it('never undoes without a found, unconfirmed, undecided sale with a PaymentId; never done while a found payment stands (1000 runs)', async () => {
    const query = fc.oneof(
      fc.record({ kind: fc.constant('unknown' as const), reason: fc.string() }),
      fc.constant({ kind: 'not-found' as const }),
      fc.record(
        {
          kind: fc.constant('found' as const),
          paymentId: fc.constantFrom(PID, ''),
          state: fc.constantFrom<HostSaleState>(
            'unknown',
            'pending',
            'approved',
            'confirmed',
            'undone',
            'declined',
            'cancelled',
          ),
          captured: fc.boolean(),
        },
        { requiredKeys: ['kind', 'state'] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(query, fc.constantFrom(BEFORE, AT, AFTER, CLOSE, PAST), async (q, now) => {
        const h = host(q);
        const d = (await attemptWatch(h.delivery, task, now, VISIBILITY)).delivery;
        const found = q.kind === 'found' ? q : undefined;
        const nothingCharged = found && ['undone', 'declined', 'cancelled'].includes(found.state);
        const final = found && (nothingCharged || found.state === 'confirmed');
        if (h.calledWith('delivery.undo').length) expect(found && !final && found.paymentId).toBeTruthy();
        if (found?.state === 'confirmed') expect(d.action).toBe('needs-refund');
        // One not-found past the close and its window is not enough: two must agree (a task fresh each run).
        if (d.action === 'done' && !d.late) expect(q.kind !== 'not-found' && nothingCharged).toBeTruthy();
        if (q.kind === 'unknown') expect(d.action).toBe('retry');
      }),
      { numRuns: 1000 },
    );
  });
});
