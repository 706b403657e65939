import type { AlarmEffect, DeliveredInput } from './machine-vocabulary.js';

/** Where a sale's undo race ends: the state, the transition's label, the reason to keep and the alarm to raise. */
export interface UndoSettled {
  to: 'undone' | 'needs-refund' | 'dead-letter';
  label: string;
  reason: string;
  alarm?: AlarmEffect;
}

/**
 * How the undo race of a sale (`sale.undo`, `cnp.undo`: the same race) ends, for every machine that
 * runs it: done → `undone`; too late (the host confirmed it) → `needs-refund` with NEEDS_REFUND;
 * given up → `dead-letter` with UNDO_DEAD_LETTER. `sale` names it in the alarms ("sale 2633…").
 */
export function undoSettled(input: DeliveredInput, sale: string): UndoSettled {
  if (input.action === 'done') return { to: 'undone', label: 'undo delivered', reason: input.reason };
  if (input.action === 'needs-refund')
    return {
      to: 'needs-refund',
      label: 'undo too late',
      reason: input.reason,
      alarm: {
        kind: 'alarm',
        code: 'NEEDS_REFUND',
        message: `${sale} stayed charged: ${input.reason}; void it when the customer returns`,
      },
    };
  return {
    to: 'dead-letter',
    label: 'undo dead-letter',
    reason: input.reason,
    alarm: { kind: 'alarm', code: 'UNDO_DEAD_LETTER', message: `undo of ${sale}: ${input.reason}` },
  };
}
