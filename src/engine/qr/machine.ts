import { codePastClose } from '../code-past-close.js';
import { decisionStep, receiptStep } from '../receipt-step.js';
import type { HostAuthorization } from '../host-authorization.js';
import type { SaleContext } from '../sale/types.js';
import { QR_FINAL, type QrEffect, type QrInput, type QrSaleData, type QrState, type QrStateName } from './types.js';

export type QrStep = { ok: true; state: QrState; effects: QrEffect[]; input: string } | { ok: false; reason: string };

function go(
  state: QrState,
  name: QrStateName,
  input: string,
  patch: Partial<QrSaleData>,
  ...effects: QrEffect[]
): QrStep {
  return { ok: true, state: { name, data: { ...state.data, ...patch } }, effects, input };
}

const undo = (s: QrState, input: string, reason: string): QrStep =>
  go(s, 'undoing', input, { reason }, { kind: 'outbox.undo' });

/** The receipt is out (or deliberately not printed): confirm now, or wait for the cash register. */
function afterReceipt(state: QrState, input: string, receipt: 'printed' | 'skipped', ctx: SaleContext): QrStep {
  if (state.data.request.confirmation === 'auto')
    return go(state, 'confirming', input, { receipt }, { kind: 'outbox.confirm' });
  const deadline = ctx.decisionDeadline(ctx.now).toISOString();
  return go(state, 'awaiting-decision', input, { receipt, deadline }, { kind: 'schedule.deadline', at: deadline });
}

/** What the wallet's payment tells, paid on time or found late: its id, and the host's authorization where the host gave it. */
function paidPatch(input: { paymentId: string; authorization?: HostAuthorization }): Partial<QrSaleData> {
  const a = input.authorization;
  return {
    paymentId: input.paymentId,
    ...(a?.authorizationCode ? { authorizationCode: a.authorizationCode } : {}),
    ...(a?.nsu ? { hostNsu: a.nsu } : {}),
    ...(a?.brandId !== undefined ? { brandId: a.brandId } : {}),
  };
}

/** The wallet QR sale as a pure transition function (same contract as the card sale's). */
export function qrTransition(state: QrState, input: QrInput, ctx: SaleContext): QrStep {
  const refuse = (): QrStep => ({ ok: false, reason: `input ${input.kind} is not valid in state ${state.name}` });
  if (QR_FINAL.has(state.name)) return refuse();
  switch (state.name) {
    case 'started':
      if (input.kind === 'shown')
        return go(
          state,
          'showing',
          'code shown',
          { qrCode: input.qrCode, nsu: input.nsu, expiresAt: input.expiresAt },
          // The alarm first: the effects run in turn, and the watch lasts until the code's end.
          ...codePastClose('QR sale', state.data.merchantOrderId, input.watchUntil ?? input.expiresAt, ctx.now),
          { kind: 'watch.payment' },
        );
      if (input.kind === 'build-failed') return go(state, 'failed', 'code not built', { reason: input.reason });
      if (input.kind === 'cancel')
        return go(state, 'cancelled', `cancel by ${input.by}`, { reason: `cancelled by ${input.by}` });
      return refuse();
    case 'showing':
      if (input.kind === 'paid') {
        return go(state, 'approved', 'paid by the wallet', paidPatch(input), { kind: 'receipt.start' });
      }
      // The code may still be paid until its validity ends: watch, and undo what comes late.
      if (input.kind === 'cancel')
        return go(
          state,
          'cancelling',
          `cancel by ${input.by}`,
          { reason: `cancelled by ${input.by}` },
          { kind: 'outbox.watch' },
        );
      if (input.kind === 'expired')
        return go(state, 'expiring', 'code expired', { reason: 'the code expired unpaid' }, { kind: 'outbox.watch' });
      return refuse();
    case 'approved':
    case 'printing':
      return receiptStep(state.name, state.data.request.receipt === false, input, ctx, {
        printing: (label, patch, ...effects) => go(state, 'printing', label, patch, ...effects),
        after: (label, receipt) => afterReceipt(state, label, receipt, ctx),
        giveBack: (label, reason) => undo(state, label, reason),
        refuse,
      });
    case 'awaiting-decision':
      return decisionStep(input, (label) => go(state, 'confirming', label, {}, { kind: 'outbox.confirm' }), {
        giveBack: (label, reason) => undo(state, label, reason),
        refuse,
      });
    case 'confirming':
    case 'undoing':
      if (input.kind !== 'delivered') return refuse();
      if (input.action === 'done')
        return go(
          state,
          state.name === 'confirming' ? 'confirmed' : 'undone',
          `${state.name === 'confirming' ? 'confirm' : 'undo'} delivered`,
          {},
        );
      if (input.action === 'needs-refund') {
        return go(
          state,
          'needs-refund',
          'undo too late',
          { reason: input.reason },
          {
            kind: 'alarm',
            code: 'NEEDS_REFUND',
            message: `QR sale ${state.data.merchantOrderId} stayed charged: ${input.reason}`,
          },
        );
      }
      return go(
        state,
        'dead-letter',
        `${state.name} dead-letter`,
        { reason: input.reason },
        { kind: 'alarm', code: 'QR_DEAD_LETTER', message: `QR sale ${state.data.merchantOrderId}: ${input.reason}` },
      );
    case 'cancelling':
    case 'expiring': {
      if (input.kind !== 'delivered') return refuse();
      const end: QrStateName = state.name === 'cancelling' ? 'cancelled' : 'expired';
      // A payment found late is recorded as one seen on time is, however the watch ends.
      const paid = input.payment ? paidPatch(input.payment) : {};
      if (input.action === 'done' && input.late) {
        return go(
          state,
          'undone',
          'late payment undone',
          { ...paid, reason: input.reason },
          {
            kind: 'alarm',
            code: 'QR_LATE_PAYMENT',
            message: `QR sale ${state.data.merchantOrderId} was paid after it ended; the payment was undone`,
          },
        );
      }
      if (input.action === 'done') return go(state, end, 'no late payment', {});
      if (input.action === 'needs-refund') {
        return go(
          state,
          'needs-refund',
          'late payment kept',
          { ...paid, reason: input.reason },
          {
            kind: 'alarm',
            code: 'NEEDS_REFUND',
            message: `QR sale ${state.data.merchantOrderId} was paid late and stayed charged: ${input.reason}`,
          },
        );
      }
      return go(
        state,
        'dead-letter',
        'watch dead-letter',
        { ...paid, reason: input.reason },
        { kind: 'alarm', code: 'QR_DEAD_LETTER', message: `QR sale ${state.data.merchantOrderId}: ${input.reason}` },
      );
    }
    default:
      return refuse();
  }
}
