import { describe, expect, it } from 'vitest';
import { planRecovery } from '../../../../src/engine/sale/recovery.js';
import type { SaleContext, SaleState } from '../../../../src/engine/sale/types.js';

const now = new Date('2026-11-22T13:00:00.000Z');
const ctx: SaleContext = { now, attended: true, decisionDeadline: (n) => new Date(n.getTime() + 600_000) };
/** A sale the cash register decides (`ecr`), as far as its request and order id. */
const base: SaleState['data'] = {
  request: { amount: 1010, method: 'credit', installments: 1, interest: 'ByMerchant', confirmation: 'ecr' },
  merchantOrderId: '263260010360003',
};

describe('recovery at start (docs/architecture.md recovery table)', () => {
  const at = (name: SaleState['name'], extra: Partial<SaleState['data']> = {}): SaleState => ({
    name,
    data: { ...base, ...extra },
  });

  it.each([
    ['started', { kind: 'transition', to: 'aborted' }],
    ['card-read', { kind: 'transition', to: 'aborted' }],
    ['authorizing', { kind: 'transition', to: 'undoing', effects: [{ kind: 'outbox.undo', by: 'orderId' }] }],
    ['finishing-chip', { kind: 'transition', to: 'undoing', effects: [{ kind: 'outbox.undo', by: 'paymentId' }] }],
    ['approved', { kind: 'transition', to: 'undoing', effects: [{ kind: 'outbox.undo', by: 'paymentId' }] }],
    ['confirming', { kind: 'ensure', effects: [{ kind: 'outbox.confirm' }] }],
    ['undoing', { kind: 'ensure', effects: [{ kind: 'outbox.undo', by: 'orderId' }] }],
    ['confirmed', { kind: 'nothing' }],
    ['undone', { kind: 'nothing' }],
    ['declined', { kind: 'nothing' }],
    ['aborted', { kind: 'nothing' }],
    ['needs-refund', { kind: 'nothing' }],
  ] as const)('%s → %j', (name, plan) => {
    expect(planRecovery(at(name), ctx)).toMatchObject(plan);
  });

  it('printing (the daemon died mid-print): attended, the cashier is asked with a deadline; unattended, undone', () => {
    expect(planRecovery(at('printing', { paymentId: 'p-8' }), ctx)).toEqual({
      kind: 'transition',
      to: 'printing',
      reason: 'stopped while the receipt was printing: the cashier is asked',
      effects: [{ kind: 'ask.receipt' }, { kind: 'schedule.deadline', at: '2026-11-22T13:10:00.000Z' }],
      patch: { deadline: '2026-11-22T13:10:00.000Z' },
    });
    expect(planRecovery(at('printing', { paymentId: 'p-8' }), { ...ctx, attended: false })).toEqual({
      kind: 'transition',
      to: 'undoing',
      reason: 'stopped while the receipt was printing: nobody can confirm the customer got it',
      effects: [{ kind: 'outbox.undo', by: 'paymentId' }],
    });
  });

  it('awaiting a decision: waits until the deadline, then undoes', () => {
    expect(planRecovery(at('awaiting-decision', { deadline: '2026-11-22T13:05:00.000Z' }), ctx)).toEqual({
      kind: 'wait',
      until: '2026-11-22T13:05:00.000Z',
      effects: [{ kind: 'schedule.deadline', at: '2026-11-22T13:05:00.000Z' }],
    });
    expect(
      planRecovery(at('awaiting-decision', { deadline: '2026-11-22T12:59:59.000Z', paymentId: 'p' }), ctx),
    ).toMatchObject({
      kind: 'transition',
      to: 'undoing',
      effects: [{ kind: 'outbox.undo', by: 'paymentId' }],
    });
  });

  it('an approved sale whose request was answered is undone by PaymentId, one in doubt by order id', () => {
    expect(planRecovery(at('authorizing', { paymentId: 'p-7' }), ctx)).toMatchObject({
      effects: [{ kind: 'outbox.undo', by: 'paymentId' }],
    });
  });
});
