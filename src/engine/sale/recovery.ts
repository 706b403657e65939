import { saleTransition } from './machine.js';
import type { SaleContext, SaleData, SaleEffect, SaleState, SaleStateName } from './types.js';

/**
 * What one unfinished sale needs after a restart: the recovery table of docs/architecture.md ("Recovery") as a pure
 * function. Recovery decides and records this synchronously before a new sale starts; the
 * outbox then delivers it.
 *
 * | state when the terminal stopped          | recovery                                           |
 * |------------------------------------------|----------------------------------------------------|
 * | started, card-read (nothing sent)        | aborted                                            |
 * | authorizing (the request may have left)  | undo by order id (the undo race: query, undo what is found) |
 * | finishing-chip, approved (receipt not out) | undo (with the card's EMV data when stored)      |
 * | printing (bytes may have gone out)       | attended: ask the cashier whether the receipt came out (undo at the deadline); |
 * |                                          | unattended: undo — nobody can confirm the customer got it |
 * | awaiting-decision                        | wait for the cash register until the deadline, then undo |
 * | confirming / undoing                     | make sure the outbox holds the request (idempotent) |
 * | final                                    | nothing                                            |
 *
 * Past the daily close, an undo still undelivered is settled by the outbox: a query, and
 * `needs-refund` when the host confirmed the sale.
 */
export type RecoveryPlan =
  | { kind: 'nothing' }
  | { kind: 'transition'; to: SaleStateName; reason: string; effects: SaleEffect[]; patch?: Partial<SaleData> }
  | { kind: 'ensure'; effects: SaleEffect[] }
  | { kind: 'wait'; until: string; effects: SaleEffect[] };

export function planRecovery(state: SaleState, ctx: SaleContext): RecoveryPlan {
  const now = ctx.now;
  switch (state.name) {
    case 'started':
    case 'card-read':
      return { kind: 'transition', to: 'aborted', reason: 'stopped before anything was sent', effects: [] };
    case 'authorizing':
      return {
        kind: 'transition',
        to: 'undoing',
        reason: 'stopped while the sale request may have been out',
        effects: [{ kind: 'outbox.undo', by: state.data.paymentId ? 'paymentId' : 'orderId' }],
      };
    case 'finishing-chip':
    case 'approved':
      return {
        kind: 'transition',
        to: 'undoing',
        reason:
          state.name === 'finishing-chip' ? 'stopped before the card finished' : 'stopped before the receipt was out',
        effects: [{ kind: 'outbox.undo', by: 'paymentId' }],
      };
    case 'printing': {
      // The daemon died while the receipt printed: whether it came out is exactly "unsure".
      const step = saleTransition(state, { kind: 'receipt', result: 'unsure' }, ctx);
      if (!step.ok) return { kind: 'nothing' };
      const deadline = step.state.name === 'printing' ? step.state.data.deadline : undefined;
      return {
        kind: 'transition',
        to: step.state.name,
        reason: ctx.attended
          ? 'stopped while the receipt was printing: the cashier is asked'
          : 'stopped while the receipt was printing: nobody can confirm the customer got it',
        effects: step.effects,
        ...(deadline ? { patch: { deadline } } : {}),
      };
    }
    case 'awaiting-decision': {
      const deadline = state.data.deadline ?? now.toISOString();
      if (Date.parse(deadline) <= now.getTime()) {
        return {
          kind: 'transition',
          to: 'undoing',
          reason: 'no decision before the deadline',
          effects: [{ kind: 'outbox.undo', by: 'paymentId' }],
        };
      }
      return { kind: 'wait', until: deadline, effects: [{ kind: 'schedule.deadline', at: deadline }] };
    }
    case 'confirming':
      return { kind: 'ensure', effects: [{ kind: 'outbox.confirm' }] };
    case 'undoing':
      return { kind: 'ensure', effects: [{ kind: 'outbox.undo', by: state.data.paymentId ? 'paymentId' : 'orderId' }] };
    default:
      return { kind: 'nothing' };
  }
}
