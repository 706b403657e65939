import { OmniposError } from '../../core/index.js';
import type { CnpHostRules } from '../cnp-ports.js';
import type { CnpChange, CnpState } from './types.js';

const DAY_MS = 86_400_000;

/**
 * The capture deadline of a pre-authorization: the host's days (CnpHostRules), counted from when
 * the sale left, a few seconds before the host's own count: never later than the host's.
 */
export function captureDeadline(state: CnpState, rules: CnpHostRules): Date {
  return new Date(Date.parse(state.data.sentAt) + rules.captureDeadlineDays * DAY_MS);
}

/** What remains charged of a captured sale, cents. */
export function remaining(state: CnpState): number {
  const d = state.data;
  return (d.capturedAmount ?? d.request.amount) - (d.voidedAmount ?? 0);
}

function amountOk(amount: number | undefined, at: number, what: string): void {
  if (amount === undefined) return;
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > at)
    throw new OmniposError('INVALID_ARGUMENT', `${what}: whole cents, from 1 to ${at}`, { amount, at });
}

/**
 * What the host's manual refuses, refused before anything is sent (each rule's line in
 * `rules.sources`): a capture only of a pre-authorization (once: a captured sale is not
 * `authorized` any more), within its deadline, of at most the amount authorized; a void only of a
 * pre-authorization (whole) or of a captured sale (whole or a part of what remains). Returns the
 * change to journal; an amount that is all that remains is the whole.
 */
export function checkChange(
  state: CnpState,
  op: CnpChange['op'],
  amount: number | undefined,
  rules: CnpHostRules,
  now: Date,
): Omit<CnpChange, 'sentAt'> {
  const sale = `sale ${state.data.merchantOrderId} is ${state.name}`;
  if (op === 'capture') {
    if (state.name !== 'authorized')
      throw new OmniposError(
        'NOT_ALLOWED',
        `only a pre-authorization is captured, once (${rules.sources.partialCapture}): ${sale}`,
      );
    const due = captureDeadline(state, rules);
    if (now.getTime() > due.getTime())
      throw new OmniposError(
        'NOT_ALLOWED',
        `the capture deadline passed at ${due.toISOString()} (${rules.sources.captureDeadline})`,
      );
    amountOk(amount, state.data.request.amount, 'the capture amount');
    return {
      op,
      from: 'authorized',
      ...(amount !== undefined && amount !== state.data.request.amount ? { amount } : {}),
    };
  }
  if (state.name === 'authorized') {
    if (amount !== undefined && amount !== state.data.request.amount)
      throw new OmniposError('NOT_ALLOWED', `a pre-authorization is voided whole (${rules.sources.partialVoid})`);
    return { op, from: 'authorized' };
  }
  // A sale whose void did not take (`needs-refund`) is still captured at the host: voided as one.
  if (state.name !== 'captured' && state.name !== 'needs-refund')
    throw new OmniposError('NOT_ALLOWED', `only a pre-authorized or captured sale is voided: ${sale}`);
  const left = remaining(state);
  amountOk(amount, left, 'the void amount');
  return { op, from: state.name, ...(amount !== undefined && amount !== left ? { amount } : {}) };
}
