import { describe, expect, it } from 'vitest';
import { PAYMENT_KINDS, type PaymentKind } from '../../../src/core/index.js';
import { CNP_STATES } from '../../../src/engine/cnp/types.js';
import { statusOf } from '../../../src/engine/payment-status.js';
import { PIX_STATES } from '../../../src/engine/pix/types.js';
import { QR_STATES } from '../../../src/engine/qr/types.js';
import { SALE_STATES } from '../../../src/engine/sale/types.js';
import { dayLine } from '../../../src/operations/day/lines.js';
import type { JournalEntry } from '../../../src/store/index.js';

const STATES: Record<PaymentKind, readonly string[]> = {
  sale: SALE_STATES,
  qr: QR_STATES,
  pix: PIX_STATES,
  cnp: CNP_STATES,
};

const row = (kind: PaymentKind, state: string): JournalEntry => ({
  id: 1,
  kind,
  merchantOrderId: '0001',
  state,
  amount: 1000,
  data: { request: { amount: 1000 } },
  createdAt: '2026-11-29T12:00:00.000Z',
  updatedAt: '2026-11-29T12:00:00.000Z',
});

describe('one status table a machine, read by the payment view and the day report', () => {
  it.each(PAYMENT_KINDS)('every state of a %s has a status, and no other state has one', (kind) => {
    for (const state of STATES[kind]) expect(statusOf(kind, state), `${kind} ${state}`).toBeDefined();
    expect(statusOf(kind, 'no-such-state')).toBeUndefined();
    expect(statusOf(kind, 'toString')).toBeUndefined();
  });

  it.each(PAYMENT_KINDS)(
    "the day counts a %s as the cash register's status reads it, but where it tells more",
    (kind) => {
      for (const state of STATES[kind]) {
        const outcome = dayLine(row(kind, state)).outcome;
        const status = statusOf(kind, state);
        const refined = ['approved', 'dead-letter', 'in-progress', 'refunded'].includes(outcome);
        expect(refined || outcome === status, `${kind} ${state}: ${outcome} beside ${status}`).toBe(true);
        if (status === 'pending') expect(['in-progress', 'approved'], `${kind} ${state}`).toContain(outcome);
      }
    },
  );

  it('tells apart what the day counts otherwise: a host-approved sale, a dead letter, a Pix refund, a void held', () => {
    expect(dayLine(row('qr', 'approved')).outcome).toBe('approved');
    expect(dayLine(row('qr', 'dead-letter')).outcome).toBe('dead-letter');
    expect(dayLine(row('pix', 'refunding')).outcome).toBe('refunded');
    expect(dayLine(row('cnp', 'voiding')).outcome).toBe('approved');
    expect(dayLine(row('cnp', 'undoing')).outcome).toBe('in-progress');
    expect(dayLine(row('sale', 'printing')).outcome).toBe('in-progress');
    expect(dayLine(row('sale', 'nonsense')).outcome).toBe('in-progress');
  });
});
