import { decisionStep, receiptStep } from '../receipt-step.js';
import { decide, saleTable, type SaleCreateAnswer } from '../rules/index.js';
import { deliverySettled } from '../delivery-settled.js';
import { undoSettled } from '../undo-settled.js';
import type {
  HostSaleOutcome,
  SaleContext,
  SaleData,
  SaleEffect,
  SaleInput,
  SaleState,
  SaleStateName,
  SaleStep,
} from './types.js';
import { FINAL_STATES } from './types.js';

function go(
  state: SaleState,
  name: SaleStateName,
  input: string,
  patch: Partial<SaleData>,
  ...effects: SaleEffect[]
): SaleStep {
  return { ok: true, state: { name, data: { ...state.data, ...patch } }, effects, input };
}

function refuse(state: SaleState, input: SaleInput): SaleStep {
  return { ok: false, reason: `input ${input.kind} is not valid in state ${state.name}` };
}

const chip = (s: SaleState): boolean => s.data.card?.chip === true;

/** The receipt is out (or deliberately not printed): confirm now, or wait for the cash register. */
function afterReceipt(state: SaleState, input: string, receipt: SaleData['receipt'], ctx: SaleContext): SaleStep {
  if (state.data.request.confirmation === 'auto')
    return go(state, 'confirming', input, { receipt }, { kind: 'outbox.confirm' });
  const deadline = ctx.decisionDeadline(ctx.now).toISOString();
  return go(state, 'awaiting-decision', input, { receipt, deadline }, { kind: 'schedule.deadline', at: deadline });
}

function undo(
  state: SaleState,
  input: string,
  reason: string,
  by: 'paymentId' | 'orderId',
  ...more: SaleEffect[]
): SaleStep {
  return go(state, 'undoing', input, { reason }, ...more, { kind: 'outbox.undo', by });
}

/** The rulebook's answer for what the host said (rules/book-create.ts `SaleCreateAnswer`). */
function answerOf(outcome: HostSaleOutcome): SaleCreateAnswer {
  if ((outcome.kind === 'declined' || outcome.kind === 'refused') && outcome.unclear) return 'unclear-decline';
  return outcome.kind;
}

/** Why an answer the sale table undoes is undone, for the journal and the alarm. */
function undoReason(outcome: HostSaleOutcome): string {
  switch (outcome.kind) {
    case 'anomaly':
      return `host anomaly: ${outcome.reason}`;
    case 'unknown':
      return `outcome unknown (${outcome.reason})`;
    case 'declined':
    case 'refused':
      return `unclear decline (${outcome.unclear ?? outcome.kind}): undone, payments.undoUnclearDeclines`;
    default:
      return `the sale table undoes a ${outcome.kind} answer`;
  }
}

/** An answer the sale table (`decide(SALE, …)`) undoes: the card told, the undo race started. */
function undoAnswer(state: SaleState, outcome: HostSaleOutcome, input: string): SaleStep {
  const paymentId = 'paymentId' in outcome ? outcome.paymentId : undefined;
  const reason = undoReason(outcome);
  const silent = outcome.kind === 'unknown' || outcome.kind === 'not-sent';
  const tellCard: SaleEffect = chip(state)
    ? { kind: 'pinpad.finish-chip', decision: silent ? 'no-communication' : 'declined' }
    : { kind: 'pinpad.end', message: silent ? 'SEM COMUNICACAO' : 'NAO AUTORIZADA' };
  const alarm: SaleEffect[] =
    outcome.kind === 'anomaly'
      ? [
          {
            kind: 'alarm',
            code: 'HOST_ANOMALY',
            message: `sale ${state.data.merchantOrderId} came back ${outcome.reason}; undoing`,
          },
        ]
      : [];
  const next = { ...state, data: { ...state.data, ...(paymentId !== undefined ? { paymentId } : {}) } };
  return undo(next, input, reason, paymentId !== undefined ? 'paymentId' : 'orderId', tellCard, ...alarm);
}

/**
 * The host's answer to the sale, decided by the rulebook's `sale` table (rules/book-create.ts,
 * `saleTable`: the configuration's one switch applied): `undo` starts the undo race; otherwise the
 * answer ends the sale's exchange as its kind says.
 */
function hostAnswer(state: SaleState, outcome: HostSaleOutcome, ctx: SaleContext): SaleStep {
  const input = `host ${outcome.kind}`;
  const rule = decide(saleTable(ctx), answerOf(outcome));
  if (rule.decision === 'undo') return undoAnswer(state, outcome, input);
  const isChip = chip(state);
  switch (outcome.kind) {
    case 'approved': {
      const patch: Partial<SaleData> = {
        paymentId: outcome.paymentId,
        ...(outcome.authorizationCode !== undefined ? { authorizationCode: outcome.authorizationCode } : {}),
        ...(outcome.nsu !== undefined ? { nsu: outcome.nsu } : {}),
        ...(outcome.returnCode !== undefined ? { returnCode: outcome.returnCode } : {}),
        ...(outcome.returnMessage !== undefined ? { returnMessage: outcome.returnMessage } : {}),
        ...(outcome.emvResponse !== undefined ? { emvResponse: outcome.emvResponse } : {}),
        ...(outcome.receipt !== undefined ? { hostReceipt: outcome.receipt } : {}),
      };
      const approved = { ...state, data: { ...state.data, ...patch } };
      if (isChip)
        return go(approved, 'finishing-chip', input, {}, { kind: 'pinpad.finish-chip', decision: 'approved' });
      if (state.data.cancelRequested)
        return undo(approved, input, 'cancelled while authorizing', 'paymentId', {
          kind: 'pinpad.end',
          message: 'CANCELADA',
        });
      return go(
        approved,
        'approved',
        input,
        {},
        { kind: 'pinpad.end', message: 'APROVADA' },
        { kind: 'receipt.start' },
      );
    }
    case 'declined':
      return go(
        state,
        'declined',
        input,
        {
          ...(outcome.paymentId !== undefined ? { paymentId: outcome.paymentId } : {}),
          ...(outcome.returnCode !== undefined ? { returnCode: outcome.returnCode } : {}),
          ...(outcome.returnMessage !== undefined ? { returnMessage: outcome.returnMessage } : {}),
          reason: 'declined by the issuer',
        },
        isChip
          ? { kind: 'pinpad.finish-chip', decision: 'declined' }
          : { kind: 'pinpad.end', message: 'NAO AUTORIZADA' },
      );
    case 'refused':
      return go(
        state,
        'failed',
        input,
        {
          ...(outcome.returnCode !== undefined ? { returnCode: outcome.returnCode } : {}),
          ...(outcome.returnMessage !== undefined ? { returnMessage: outcome.returnMessage } : {}),
          reason: `refused by the host (HTTP ${outcome.status})`,
        },
        isChip
          ? { kind: 'pinpad.finish-chip', decision: 'no-communication', message: 'FALHA NA TRANSACAO' }
          : { kind: 'pinpad.end', message: 'FALHA NA TRANSACAO' },
      );
    case 'not-sent':
      return go(
        state,
        'failed',
        input,
        { reason: 'the acquirer could not be reached; nothing was sent' },
        isChip
          ? { kind: 'pinpad.finish-chip', decision: 'no-communication' }
          : { kind: 'pinpad.end', message: 'SEM COMUNICACAO' },
      );
    case 'anomaly':
    case 'unknown':
      return go(
        state,
        'failed',
        input,
        { reason: `${outcome.kind}: ${rule.why}` },
        isChip
          ? { kind: 'pinpad.finish-chip', decision: 'no-communication' }
          : { kind: 'pinpad.end', message: 'FALHA NA TRANSACAO' },
      );
  }
}

/** The sale before its card is read: the card comes, is refused, fails, or the sale is cancelled. */
function fromStarted(state: SaleState, input: SaleInput): SaleStep {
  if (input.kind === 'card-read')
    return go(state, 'card-read', 'card read', { card: input.card, ...(input.emv ? { emv: input.emv } : {}) });
  if (input.kind === 'card-refused')
    return go(
      state,
      'refused',
      'card refused',
      { reason: input.reason, refusal: input.refusal },
      { kind: 'pinpad.end', message: 'OPERACAO CANCELADA' },
    );
  if (input.kind === 'card-failed')
    return go(
      state,
      'aborted',
      'card failed',
      { reason: input.reason },
      { kind: 'pinpad.end', message: 'OPERACAO CANCELADA' },
    );
  if (input.kind === 'cancel')
    return go(
      state,
      'aborted',
      `cancel by ${input.by}`,
      { reason: `cancelled by ${input.by}` },
      { kind: 'pinpad.end', message: 'OPERACAO CANCELADA' },
    );
  return refuse(state, input);
}

/**
 * The card sale as a pure transition function: (state, input) → the next state and the effects
 * its owner runs after committing it, or a refusal naming the input and the state. It never
 * throws, reads no clock but `ctx.now`, and changes nothing it is given.
 */
export function saleTransition(state: SaleState, input: SaleInput, ctx: SaleContext): SaleStep {
  if (FINAL_STATES.has(state.name)) return refuse(state, input);
  switch (state.name) {
    case 'started':
      return fromStarted(state, input);
    case 'card-read':
      if (input.kind === 'authorize')
        return go(state, 'authorizing', 'authorize', { sentAt: ctx.now.toISOString() }, { kind: 'acquirer.sale' });
      if (input.kind === 'cancel' || input.kind === 'card-failed') {
        const reason = input.kind === 'cancel' ? `cancelled by ${input.by}` : input.reason;
        return go(
          state,
          'aborted',
          input.kind,
          { reason },
          chip(state)
            ? { kind: 'pinpad.finish-chip', decision: 'aborted' }
            : { kind: 'pinpad.end', message: 'OPERACAO CANCELADA' },
        );
      }
      return refuse(state, input);
    case 'authorizing':
      if (input.kind === 'host-answer') return hostAnswer(state, input.outcome, ctx);
      // The request may be at the host: a cancel now undoes whatever comes back approved.
      if (input.kind === 'cancel') return go(state, 'authorizing', `cancel by ${input.by}`, { cancelRequested: true });
      return refuse(state, input);
    case 'finishing-chip':
      if (input.kind === 'chip-finished') {
        const emv = input.emv ? { emv: input.emv } : {};
        if (input.card === 'approved' && !state.data.cancelRequested) {
          return go(state, 'approved', 'card approved', emv, { kind: 'receipt.start' });
        }
        const reason =
          input.card === 'approved'
            ? 'cancelled while authorizing'
            : input.card === 'declined'
              ? 'card declined after the host approved'
              : `card session failed: ${input.reason ?? 'unknown'}`;
        return undo({ ...state, data: { ...state.data, ...emv } }, `card ${input.card}`, reason, 'paymentId');
      }
      if (input.kind === 'cancel')
        return go(state, 'finishing-chip', `cancel by ${input.by}`, { cancelRequested: true });
      return refuse(state, input);
    case 'approved':
    case 'printing':
      // The receipt step every paid sale shares (../receipt-step.ts): what the sale gives back is an undo.
      return receiptStep(state.name, state.data.request.receipt === false, input, ctx, {
        printing: (label, patch, ...effects) => go(state, 'printing', label, patch, ...effects),
        after: (label, receipt) => afterReceipt(state, label, receipt, ctx),
        giveBack: (label, reason) => undo(state, label, reason, 'paymentId'),
        refuse: () => refuse(state, input),
      });
    case 'awaiting-decision':
      return decisionStep(input, (label) => go(state, 'confirming', label, {}, { kind: 'outbox.confirm' }), {
        giveBack: (label, reason) => undo(state, label, reason, 'paymentId'),
        refuse: () => refuse(state, input),
      });
    case 'confirming':
      if (input.kind === 'delivered') {
        const about = `confirmation of ${state.data.merchantOrderId}`;
        const end = deliverySettled(input, 'confirm', 'confirmed', { code: 'CONFIRM_DEAD_LETTER', about });
        return go(state, end.to, end.label, end.patch, ...end.effects);
      }
      return refuse(state, input);
    case 'undoing':
      if (input.kind === 'chip-data')
        return go(state, 'undoing', 'chip data', { emv: input.emv }, { kind: 'outbox.undo-emv' });
      if (input.kind === 'delivered') {
        const end = undoSettled(input, `sale ${state.data.merchantOrderId}`);
        // An undo done keeps the sale's reason (why it was undone); the others say why it was not.
        const patch = end.to === 'undone' ? {} : { reason: end.reason };
        return end.alarm ? go(state, end.to, end.label, patch, end.alarm) : go(state, end.to, end.label, patch);
      }
      return refuse(state, input);
    default:
      return refuse(state, input);
  }
}
