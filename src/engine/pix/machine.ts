import type { MachineStep } from '../machine-owner.js';
import { PIX_CHARGE, decide } from '../rules/index.js';
import { decisionStep, receiptStep } from '../receipt-step.js';
import { codePastClose } from '../code-past-close.js';
import type { SaleContext } from '../sale/types.js';
import {
  PIX_FINAL,
  type PixEffect,
  type PixInput,
  type PixSaleData,
  type PixState,
  type PixStateName,
} from './types.js';

function go(
  state: PixState,
  name: PixStateName,
  input: string,
  patch: Partial<PixSaleData>,
  ...effects: PixEffect[]
): MachineStep<PixState, PixEffect> {
  return { ok: true, state: { name, data: { ...state.data, ...patch } }, effects, input };
}

const refund = (s: PixState, input: string, reason: string) =>
  go(s, 'refunding', input, { reason }, { kind: 'outbox.pix-refund' });

/** The receipt is out (or deliberately not printed): a Pix is final at the host, so `auto` ends here. */
function afterReceipt(
  state: PixState,
  input: string,
  receipt: 'printed' | 'skipped',
  ctx: SaleContext,
): MachineStep<PixState, PixEffect> {
  if (state.data.request.confirmation === 'auto') return go(state, 'confirmed', input, { receipt });
  const deadline = ctx.decisionDeadline(ctx.now).toISOString();
  return go(state, 'awaiting-decision', input, { receipt, deadline }, { kind: 'schedule.deadline', at: deadline });
}

/** A cancellation or a refund the outbox delivered (or gave up on): the Pix sale's last step. */
function settled(state: PixState, input: Extract<PixInput, { kind: 'delivered' }>): MachineStep<PixState, PixEffect> {
  if (input.action === 'done') {
    if (state.name === 'refunding') return go(state, 'refunded', 'refund done', {});
    if (input.late) {
      return go(
        state,
        'refunded',
        'late payment refunded',
        { reason: input.reason },
        {
          kind: 'alarm',
          code: 'PIX_LATE_PAYMENT',
          message: `Pix ${state.data.merchantOrderId} was paid after it was cancelled; it was refunded`,
        },
      );
    }
    return go(state, 'cancelled', 'no payment', {});
  }
  return go(
    state,
    'dead-letter',
    `${state.name} ${input.action}`,
    { reason: input.reason },
    input.refused
      ? {
          kind: 'alarm',
          code: 'PIX_REFUND_REFUSED',
          message: `Pix ${state.data.merchantOrderId}: the refund of a late payment was refused by the provider: ${input.reason}`,
        }
      : { kind: 'alarm', code: 'PIX_DEAD_LETTER', message: `Pix ${state.data.merchantOrderId}: ${input.reason}` },
  );
}

/** The Pix sale as a pure transition function (same contract as the card sale's). */
export function pixTransition(state: PixState, input: PixInput, ctx: SaleContext): MachineStep<PixState, PixEffect> {
  const refuse = (): MachineStep<PixState, PixEffect> => ({
    ok: false,
    reason: `input ${input.kind} is not valid in state ${state.name}`,
  });
  if (PIX_FINAL.has(state.name)) return refuse();
  switch (state.name) {
    case 'creating':
      if (input.kind !== 'created') return refuse();
      // The rulebook's `pix` table (rules/book-create.ts PIX_CHARGE): only a charge with its code is watched.
      if (decide(PIX_CHARGE, input.result.kind).decision === 'watch' && input.result.kind === 'created') {
        return go(
          state,
          'showing',
          'Pix created',
          {
            paymentId: input.result.paymentId,
            qrCode: input.result.qrCode,
            expiresAt: input.expiresAt,
            ...(input.result.nsu ? { hostNsu: input.result.nsu } : {}),
          },
          // The alarm first (as the QR sale's): the effects run in turn, and the watch lasts until the code's end.
          ...codePastClose('Pix sale', state.data.merchantOrderId, input.watchUntil ?? input.expiresAt, ctx.now),
          { kind: 'watch.payment' },
        );
      }
      return go(state, 'failed', `Pix ${input.result.kind}`, {
        reason: 'reason' in input.result ? input.result.reason : decide(PIX_CHARGE, input.result.kind).why,
      });
    case 'showing':
      if (input.kind === 'paid') return go(state, 'approved', 'paid', {}, { kind: 'receipt.start' });
      if (input.kind === 'cancel')
        return go(
          state,
          'cancelling',
          `cancel by ${input.by}`,
          { reason: `cancelled by ${input.by}` },
          { kind: 'outbox.pix-cancel' },
        );
      if (input.kind === 'expired')
        return go(
          state,
          'cancelling',
          'code expired',
          { reason: 'the code expired unpaid', expired: true },
          { kind: 'outbox.pix-cancel' },
        );
      return refuse();
    case 'approved':
    case 'printing':
      return receiptStep(state.name, state.data.request.receipt === false, input, ctx, {
        printing: (label, patch, ...effects) => go(state, 'printing', label, patch, ...effects),
        after: (label, receipt) => afterReceipt(state, label, receipt, ctx),
        giveBack: (label, reason) => refund(state, label, reason),
        refuse,
      });
    case 'awaiting-decision':
      return decisionStep(input, (label) => go(state, 'confirmed', label, {}), {
        giveBack: (label, reason) => refund(state, label, reason),
        refuse,
      });
    case 'cancelling':
    case 'refunding':
      if (input.kind !== 'delivered') return refuse();
      return settled(state, input);
    default:
      return refuse();
  }
}
