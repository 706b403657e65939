import type { MachineStep } from '../owner-deps.js';
import { SALE, decide } from '../rules/index.js';
import type { DeliveredInput } from '../machine-vocabulary.js';
import type { CnpSaleOutcome } from '../cnp-ports.js';
import {
  CNP_FINAL,
  type CnpEffect,
  type CnpInput,
  type CnpSaleData,
  type CnpState,
  type CnpStateName,
} from './types.js';

type Step = MachineStep<CnpState, CnpEffect>;

function go(
  state: CnpState,
  name: CnpStateName,
  input: string,
  patch: Partial<CnpSaleData>,
  ...effects: CnpEffect[]
): Step {
  return { ok: true, state: { name, data: { ...state.data, ...patch } }, effects, input };
}

/** What the answer tells that may be kept: never the card, only what the host echoed. */
function kept(o: CnpSaleOutcome): Partial<CnpSaleData> {
  return {
    detail: o.detail,
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
function answered(state: CnpState, o: CnpSaleOutcome): Step {
  const rule = decide(SALE, o.answer);
  const patch = kept(o);
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

function delivered(state: CnpState, input: DeliveredInput): Step {
  if (input.action === 'done') return go(state, 'undone', 'undo delivered', { reason: input.reason });
  const order = state.data.merchantOrderId;
  if (input.action === 'needs-refund')
    return go(
      state,
      'needs-refund',
      'undo too late',
      { reason: input.reason },
      {
        kind: 'alarm',
        code: 'NEEDS_REFUND',
        message: `card-not-present sale ${order} stayed charged: ${input.reason}; void it by its PaymentId`,
      },
    );
  return go(
    state,
    'dead-letter',
    'undo dead-letter',
    { reason: input.reason },
    { kind: 'alarm', code: 'UNDO_DEAD_LETTER', message: `undo of card-not-present sale ${order}: ${input.reason}` },
  );
}

/** The card-not-present sale as a pure transition function (the same contract as the card sale's). */
export function cnpTransition(state: CnpState, input: CnpInput): Step {
  const refuse = (): Step => ({ ok: false, reason: `input ${input.kind} is not valid in state ${state.name}` });
  if (CNP_FINAL.has(state.name)) return refuse();
  if (state.name === 'sending' && input.kind === 'answered') return answered(state, input.outcome);
  if (state.name === 'undoing' && input.kind === 'delivered') return delivered(state, input);
  return refuse();
}
