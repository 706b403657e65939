import { deliverySettled, type DeliverySettled } from '../delivery-settled.js';
import type { MachineStep } from '../machine-owner.js';
import { VOID, decide } from '../rules/index.js';
import {
  FINAL_VOID_STATES,
  type HostVoidOutcome,
  type VoidData,
  type VoidEffect,
  type VoidInput,
  type VoidState,
  type VoidStateName,
} from './types.js';

export type VoidStep = MachineStep<VoidState, VoidEffect>;

function go(
  state: VoidState,
  name: VoidStateName,
  input: string,
  patch: Partial<VoidData>,
  ...effects: VoidEffect[]
): VoidStep {
  return { ok: true, state: { name, data: { ...state.data, ...patch } }, effects, input };
}

/** Where a delivered confirmation, undo or refund leaves the void (../delivery-settled.ts). */
function settle(state: VoidState, end: DeliverySettled<VoidStateName>): VoidStep {
  return go(state, end.to, end.label, end.patch, ...end.effects);
}

function refuse(state: VoidState, input: VoidInput): VoidStep {
  return { ok: false, reason: `input ${input.kind} is not valid in void state ${state.name}` };
}

const chip = (s: VoidState): boolean => s.data.card?.chip === true;
const PRINT: VoidEffect = { kind: 'print.void-receipt' };

function rc(o: { returnCode?: string; returnMessage?: string }): Partial<VoidData> {
  return {
    ...(o.returnCode !== undefined ? { returnCode: o.returnCode } : {}),
    ...(o.returnMessage !== undefined ? { returnMessage: o.returnMessage } : {}),
  };
}

/** The card is told how the void ended: FCX for chip, a closing message otherwise. */
function tell(
  state: VoidState,
  decision: 'approved' | 'declined' | 'no-communication' | 'aborted',
  message: string,
): VoidEffect {
  return chip(state) ? { kind: 'pinpad.finish-chip', decision } : { kind: 'pinpad.end', message };
}

/**
 * The host's answer to the void create, decided by the rulebook's `void` table (rules/book-create.ts
 * `VOID`): `undo` undoes it by MerchantVoidId (no VoidId came back); otherwise the answer ends the
 * void's exchange as its kind says.
 */
function hostAnswer(state: VoidState, outcome: HostVoidOutcome): VoidStep {
  const input = `host ${outcome.kind}`;
  const rule = decide(VOID, outcome.kind);
  if (rule.decision === 'undo')
    return go(
      state,
      'undoing',
      input,
      { reason: `void outcome ${outcome.kind}${'reason' in outcome ? ` (${outcome.reason})` : ''}: ${rule.why}` },
      tell(state, 'no-communication', 'SEM COMUNICACAO'),
      { kind: 'outbox.void-undo', by: 'merchantVoidId' },
    );
  switch (outcome.kind) {
    case 'approved': {
      const patch: Partial<VoidData> = {
        voidId: outcome.voidId,
        ...rc(outcome),
        ...(outcome.emvResponse ? { emvResponse: outcome.emvResponse } : {}),
      };
      if (chip(state))
        return go(state, 'finishing-chip', input, patch, { kind: 'pinpad.finish-chip', decision: 'approved' });
      return go(
        state,
        'confirming',
        input,
        patch,
        { kind: 'pinpad.end', message: 'CANCELAMENTO\nAPROVADO' },
        { kind: 'outbox.void-confirm' },
        PRINT,
      );
    }
    case 'declined':
      return go(
        state,
        'declined',
        input,
        { ...(outcome.voidId ? { voidId: outcome.voidId } : {}), ...rc(outcome), reason: 'void declined by the host' },
        tell(state, 'declined', 'CANCELAMENTO\nNEGADO'),
      );
    case 'refused':
      return go(
        state,
        'failed',
        input,
        { ...rc(outcome), reason: `void refused by the host (HTTP ${outcome.status})` },
        tell(state, 'no-communication', 'FALHA NO\nCANCELAMENTO'),
      );
    case 'not-sent':
      return go(
        state,
        'failed',
        input,
        { reason: 'the acquirer could not be reached; nothing was sent' },
        tell(state, 'no-communication', 'SEM COMUNICACAO'),
      );
    case 'unknown':
      return go(
        state,
        'failed',
        input,
        { reason: `void outcome unknown (${outcome.reason}): ${rule.why}` },
        tell(state, 'no-communication', 'FALHA NO\nCANCELAMENTO'),
      );
  }
}

/**
 * The ended cancellation code's watch settled (`void.code-watch`): applied late → the money went
 * back, the void is confirmed; not applied, final by the visibility rule → expired, nothing given
 * back; a dead letter → a person decides (its alarm).
 */
function codeWatched(state: VoidState, input: Extract<VoidInput, { kind: 'delivered' }>): VoidStep {
  if (input.action === 'done' && input.late)
    return codeApplied(state, 'cancellation applied late by the wallet', input.voidId, { reason: input.reason });
  if (input.action === 'done')
    return go(state, 'expired', 'cancellation code expired', {
      reason: `the cancellation code expired unpaid (${input.reason})`,
    });
  return go(
    state,
    'dead-letter',
    'cancellation watch dead-letter',
    { reason: input.reason },
    {
      kind: 'alarm',
      code: 'DEAD_LETTER',
      message: `cancellation code of void ${state.data.merchantVoidId}: ${input.reason}`,
    },
  );
}

/**
 * The wallet applied the cancellation code, seen while the code showed or by the late watch: the
 * one way a wallet QR void is confirmed — its VoidId recorded, its receipt printed.
 */
function codeApplied(
  state: VoidState,
  label: string,
  voidId: string | undefined,
  patch: Partial<VoidData> = {},
): VoidStep {
  return go(state, 'confirmed', label, { ...patch, ...(voidId !== undefined ? { voidId } : {}) }, PRINT);
}

/** A wallet QR void before its code shows: no card, no pinpad session; only the code's inputs (or a cancel). */
function walletStarted(state: VoidState, input: VoidInput): VoidStep {
  if (input.kind === 'code-shown') {
    return go(
      state,
      'showing-code',
      'cancellation code shown',
      { qrCode: input.qrCode, nsu: input.nsu, expiresAt: input.expiresAt },
      { kind: 'watch.cancellation' },
    );
  }
  if (input.kind === 'code-failed') return go(state, 'failed', 'cancellation code failed', { reason: input.reason });
  if (input.kind === 'cancel')
    return go(state, 'aborted', `cancel by ${input.by}`, { reason: `cancelled by ${input.by}` });
  return refuse(state, input);
}

/**
 * The card void as a pure transition function, like the sale's: (state, input) → next state and
 * the effects its owner runs after committing it, or a refusal. Never throws.
 *
 *   started → card-read → voiding → (chip: finishing-chip) → confirming → confirmed
 *   started → refused (another card: nothing sent)        voiding → declined | failed
 *   voiding → undoing (no answer: undo by MerchantVoidId)  finishing-chip → undoing (card declined: by VoidId)
 */
export function voidTransition(state: VoidState, input: VoidInput): VoidStep {
  if (FINAL_VOID_STATES.has(state.name)) return refuse(state, input);
  switch (state.name) {
    case 'started':
      if (state.data.sale.kind === 'wallet-qr') return walletStarted(state, input);
      if (input.kind === 'card-read') return go(state, 'card-read', 'card read', { card: input.card });
      if (input.kind === 'card-mismatch') {
        return go(
          state,
          'refused',
          'card mismatch',
          { card: input.card, reason: input.reason },
          input.card.chip
            ? { kind: 'pinpad.finish-chip', decision: 'aborted' }
            : { kind: 'pinpad.end', message: 'CARTAO DIFERENTE\nDA VENDA' },
        );
      }
      if (input.kind === 'card-failed')
        return go(
          state,
          'aborted',
          'card failed',
          { reason: input.reason },
          { kind: 'pinpad.end', message: 'OPERACAO CANCELADA' },
        );
      if (input.kind === 'refund' && (state.data.sale.kind === 'pix' || state.data.sale.kind === 'ecommerce-qr'))
        return go(state, 'refunding', 'refund', {}, { kind: 'outbox.pix-refund' });
      if (input.kind === 'cancel')
        return go(
          state,
          'aborted',
          `cancel by ${input.by}`,
          { reason: `cancelled by ${input.by}` },
          { kind: 'pinpad.end', message: 'OPERACAO CANCELADA' },
        );
      return refuse(state, input);
    case 'card-read':
      if (input.kind === 'send') return go(state, 'voiding', 'send', { sentAt: input.at }, { kind: 'acquirer.void' });
      if (input.kind === 'cancel' || input.kind === 'card-failed') {
        const reason = input.kind === 'cancel' ? `cancelled by ${input.by}` : input.reason;
        return go(state, 'aborted', input.kind, { reason }, tell(state, 'aborted', 'OPERACAO CANCELADA'));
      }
      return refuse(state, input);
    case 'voiding':
      if (input.kind === 'host-answer') return hostAnswer(state, input.outcome);
      return refuse(state, input);
    case 'finishing-chip':
      if (input.kind === 'chip-finished') {
        const emv = input.emv ? { emv: input.emv } : {};
        if (input.card === 'approved')
          return go(state, 'confirming', 'card approved', emv, { kind: 'outbox.void-confirm' }, PRINT);
        const reason =
          input.card === 'declined'
            ? 'card declined after the host approved the void'
            : `card session failed: ${input.reason ?? 'unknown'}`;
        return go(
          state,
          'undoing',
          `card ${input.card}`,
          { ...emv, reason },
          { kind: 'outbox.void-undo', by: 'voidId' },
        );
      }
      return refuse(state, input);
    case 'confirming':
      if (input.kind === 'delivered') {
        const about = `confirmation of void ${state.data.merchantVoidId}`;
        return settle(
          state,
          deliverySettled(input, 'void confirm', 'confirmed', { code: 'VOID_CONFIRM_DEAD_LETTER', about }),
        );
      }
      return refuse(state, input);
    case 'showing-code':
      // A code once shown stays payable until it expires: it is watched, never withdrawn.
      if (input.kind === 'code-applied') return codeApplied(state, 'cancellation applied by the wallet', input.voidId);
      // Ended on the terminal, not at the host: the one visibility rule decides when "not applied" is final.
      if (input.kind === 'code-expired')
        return go(
          state,
          'expiring',
          'cancellation code ended',
          {
            reason: 'the cancellation code ended unpaid on the terminal',
            ...(input.until !== undefined ? { watchedUntil: input.until } : {}),
          },
          { kind: 'outbox.code-watch' },
        );
      return refuse(state, input);
    case 'expiring':
      if (input.kind === 'delivered') return codeWatched(state, input);
      return refuse(state, input);
    case 'refunding':
      if (input.kind === 'delivered') {
        const code = input.refused ? 'PIX_REFUND_REFUSED' : 'PIX_REFUND_DEAD_LETTER';
        const sale = `${state.data.sale.kind === 'ecommerce-qr' ? 'e-commerce QR sale' : 'Pix'} ${state.data.sale.merchantOrderId}`;
        const about = `refund ${state.data.merchantVoidId} of ${sale}${input.refused ? ' refused by the provider' : ''}`;
        return settle(state, deliverySettled(input, 'refund', 'confirmed', { code, about }));
      }
      return refuse(state, input);
    case 'undoing':
      if (input.kind === 'delivered') {
        // The host had confirmed the void (e.g. at its daily close): the money went back after all.
        if (input.action === 'needs-refund') {
          return go(
            state,
            'confirmed',
            'void stood',
            { reason: input.reason },
            {
              kind: 'alarm',
              code: 'VOID_STOOD',
              message: `void ${state.data.merchantVoidId} could not be undone: ${input.reason}`,
            },
          );
        }
        const about = `undo of void ${state.data.merchantVoidId}`;
        return settle(state, deliverySettled(input, 'void undo', 'undone', { code: 'VOID_UNDO_DEAD_LETTER', about }));
      }
      return refuse(state, input);
    default:
      return refuse(state, input);
  }
}
