import type { MachineStep } from '../owner-deps.js';
import { SALE, decide } from '../rules/index.js';
import { undoSettled } from '../undo-settled.js';
import { changeAnswered, changeAsked, changeDelivered, go } from './changes.js';
import type { DeliveredInput } from '../machine-vocabulary.js';
import type { CnpSaleOutcome } from '../cnp-ports.js';
import { CNP_FINAL, type CnpEffect, type CnpInput, type CnpSaleData, type CnpState } from './types.js';

type Step = MachineStep<CnpState, CnpEffect>;

/** What the answer tells that may be kept: never the card, only what the host echoed. */
function kept(o: Omit<CnpSaleOutcome, 'cardToken'>): Partial<CnpSaleData> {
  return {
    detail: o.detail,
    ...(o.recurrenceId ? { recurrenceId: o.recurrenceId } : {}),
    ...(o.paymentId ? { paymentId: o.paymentId } : {}),
    ...(o.maskedNumber ? { maskedNumber: o.maskedNumber } : {}),
    ...(o.authorizationCode ? { authorizationCode: o.authorizationCode } : {}),
  };
}

/**
 * The sale's answer, decided by the rulebook's `sale` table (rules/book-create.ts `SALE`, the table
 * a card sale is decided by): `undo` (unknown, an anomaly) → the undo race; `done` → approved
 * (captured or held, as the answer's state shows), declined, or failed (refused, never sent).
 */
function answered(state: CnpState, o: Omit<CnpSaleOutcome, 'cardToken'>, savedCardId?: number): Step {
  const rule = decide(SALE, o.answer);
  const patch = { ...kept(o), ...(savedCardId !== undefined ? { savedCardId } : {}) };
  if (rule.decision === 'undo') {
    const undo: CnpEffect = { kind: 'outbox.cnp-undo' };
    if (o.answer !== 'anomaly') return go(state, 'undoing', `sale ${o.answer}`, { ...patch, reason: rule.why }, undo);
    return go(state, 'undoing', 'sale anomaly', { ...patch, reason: rule.why }, undo, {
      kind: 'alarm',
      code: 'HOST_ANOMALY',
      message: `card-not-present sale ${state.data.merchantOrderId}: ${o.detail}; it is being voided`,
    });
  }
  if (o.answer === 'approved') {
    const held = !state.data.request.capture && o.state === 'pending';
    return go(state, held ? 'authorized' : 'captured', held ? 'pre-authorized' : 'approved', patch);
  }
  if (o.answer === 'declined') return go(state, 'declined', 'declined', { ...patch, reason: o.detail });
  return go(state, 'failed', `sale ${o.answer}`, { ...patch, reason: `${rule.why}: ${o.detail}` });
}

/** The undo race's end, as the card sale's (undo-settled.ts). */
function delivered(state: CnpState, input: DeliveredInput): Step {
  const end = undoSettled(input, `card-not-present sale ${state.data.merchantOrderId}`);
  const patch = { reason: end.reason };
  return end.alarm ? go(state, end.to, end.label, patch, end.alarm) : go(state, end.to, end.label, patch);
}

/** The card-not-present sale as a pure transition function (the same contract as the card sale's). */
export function cnpTransition(state: CnpState, input: CnpInput): Step {
  const refuse = (): Step => ({ ok: false, reason: `input ${input.kind} is not valid in state ${state.name}` });
  // A captured sale is final as a sale (retention keeps its row like any other) and still voidable.
  if (input.kind === 'change') return changeAsked(state, input.change) ?? refuse();
  if (CNP_FINAL.has(state.name)) return refuse();
  if (state.name === 'sending' && input.kind === 'answered') return answered(state, input.outcome, input.savedCardId);
  if (state.name === 'undoing' && input.kind === 'delivered') return delivered(state, input);
  const changing = state.name === 'capturing' || state.name === 'voiding';
  const step =
    changing && input.kind === 'changed'
      ? changeAnswered(state, input.outcome)
      : changing && input.kind === 'delivered'
        ? changeDelivered(state, input)
        : undefined;
  return step ?? refuse();
}
