import type { VoidEffect, VoidState, VoidStateName } from './types.js';

/**
 * What one unfinished void needs after a restart: the recovery table (docs/architecture.md, "Recovery") read for voids.
 *
 * | state when the terminal stopped        | recovery                                                |
 * |----------------------------------------|---------------------------------------------------------|
 * | started, card-read (nothing sent)      | aborted                                                 |
 * | voiding (the request may have left)    | undo by MerchantVoidId (by VoidId when it is known)     |
 * | finishing-chip (approved, card open)   | undo by VoidId: the card never finished the void        |
 * | confirming / undoing / refunding       | make sure the outbox holds the request (idempotent)     |
 * | expiring (the code ended unpaid)       | make sure the outbox holds its watch (idempotent)       |
 * | final                                  | nothing                                                 |
 */
export type VoidRecoveryPlan =
  | { kind: 'nothing' }
  | { kind: 'transition'; to: VoidStateName; reason: string; effects: VoidEffect[] }
  | { kind: 'ensure'; effects: VoidEffect[] };

const undoBy = (s: VoidState): VoidEffect => ({
  kind: 'outbox.void-undo',
  by: s.data.voidId ? 'voidId' : 'merchantVoidId',
});

export function planVoidRecovery(state: VoidState): VoidRecoveryPlan {
  switch (state.name) {
    case 'started':
    case 'card-read':
      return { kind: 'transition', to: 'aborted', reason: 'stopped before anything was sent', effects: [] };
    case 'voiding':
      return {
        kind: 'transition',
        to: 'undoing',
        reason: 'stopped while the void request may have been out',
        effects: [undoBy(state)],
      };
    case 'finishing-chip':
      return {
        kind: 'transition',
        to: 'undoing',
        reason: 'stopped before the card finished the void',
        effects: [undoBy(state)],
      };
    case 'confirming':
      return { kind: 'ensure', effects: [{ kind: 'outbox.void-confirm' }] };
    case 'undoing':
      return { kind: 'ensure', effects: [undoBy(state)] };
    case 'refunding':
      return { kind: 'ensure', effects: [{ kind: 'outbox.pix-refund' }] };
    case 'expiring':
      return { kind: 'ensure', effects: [{ kind: 'outbox.code-watch' }] };
    default:
      return { kind: 'nothing' };
  }
}
