import type { MachineStep } from '../machine-owner.js';
import type { SaleContext } from '../sale/types.js';
import { PIX_FINAL, type PixEffect, type PixInput, type PixSaleData, type PixState, type PixStateName } from './types.js';

function go(state: PixState, name: PixStateName, input: string, patch: Partial<PixSaleData>, ...effects: PixEffect[]): MachineStep<PixState, PixEffect> {
  return { ok: true, state: { name, data: { ...state.data, ...patch } }, effects, input };
}

const refund = (s: PixState, input: string, reason: string) => go(s, 'refunding', input, { reason }, { kind: 'outbox.pix-refund' });

/** The Pix sale as a pure transition function (same contract as the card sale's). */
export function pixTransition(state: PixState, input: PixInput, ctx: SaleContext): MachineStep<PixState, PixEffect> {
  const refuse = (): MachineStep<PixState, PixEffect> => ({ ok: false, reason: `input ${input.kind} is not valid in state ${state.name}` });
  if (PIX_FINAL.has(state.name)) return refuse();
  switch (state.name) {
    case 'creating':
      if (input.kind !== 'created') return refuse();
      if (input.result.kind === 'created') {
        return go(state, 'showing', 'Pix created', { paymentId: input.result.paymentId, qrCode: input.result.qrCode, expiresAt: input.expiresAt }, { kind: 'watch.payment' });
      }
      return go(state, 'failed', `Pix ${input.result.kind}`, { reason: input.result.reason });
    case 'showing':
      if (input.kind === 'paid') return go(state, 'approved', 'paid', {}, { kind: 'print.receipt' });
      if (input.kind === 'cancel') return go(state, 'cancelling', `cancel by ${input.by}`, { reason: `cancelled by ${input.by}` }, { kind: 'outbox.pix-cancel' });
      if (input.kind === 'expired') return go(state, 'cancelling', 'code expired', { reason: 'the code expired unpaid' }, { kind: 'outbox.pix-cancel' });
      return refuse();
    case 'approved':
      if (input.kind === 'receipt') {
        if (input.result === 'printed' || input.result === 'skipped') {
          if (state.data.request.confirmation === 'auto') return go(state, 'confirmed', `receipt ${input.result}`, { receipt: input.result });
          const deadline = ctx.decisionDeadline(ctx.now).toISOString();
          return go(state, 'awaiting-decision', `receipt ${input.result}`, { receipt: input.result, deadline }, { kind: 'schedule.deadline', at: deadline });
        }
        if (input.result === 'unsure' && ctx.attended) return go(state, 'approved', 'receipt unsure', {}, { kind: 'ask.receipt' });
        return refund(state, `receipt ${input.result}`, 'the receipt did not come out');
      }
      if (input.kind === 'cancel') return refund(state, `cancel by ${input.by}`, `cancelled by ${input.by}`);
      return refuse();
    case 'awaiting-decision':
      if (input.kind === 'decision') {
        if (input.decision === 'confirm') return go(state, 'confirmed', `confirm by ${input.by}`, {});
        return refund(state, `undo by ${input.by}`, input.by === 'deadline' ? 'no decision before the deadline' : `undone by ${input.by}`);
      }
      if (input.kind === 'cancel') return refund(state, `cancel by ${input.by}`, `cancelled by ${input.by}`);
      return refuse();
    case 'cancelling':
    case 'refunding':
      if (input.kind !== 'delivered') return refuse();
      if (input.action === 'done') {
        if (state.name === 'refunding') return go(state, 'refunded', 'refund done', {});
        if (input.late) {
          return go(state, 'refunded', 'late payment refunded', { reason: input.reason }, { kind: 'alarm', code: 'PIX_LATE_PAYMENT', message: `Pix ${state.data.merchantOrderId} was paid after it was cancelled; it was refunded` });
        }
        return go(state, 'cancelled', 'no payment', {});
      }
      return go(state, 'dead-letter', `${state.name} ${input.action}`, { reason: input.reason }, { kind: 'alarm', code: 'PIX_DEAD_LETTER', message: `Pix ${state.data.merchantOrderId}: ${input.reason}` });
    default:
      return refuse();
  }
}
