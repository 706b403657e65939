import type { MachineStep } from '../owner-deps.js';
import type { CnpChangeOutcome } from '../cnp-ports.js';
import type { DeliveredInput } from '../machine-vocabulary.js';
import type { HostSaleState } from '../ports.js';
import { undoSettled } from '../undo-settled.js';
import type { CnpChange, CnpEffect, CnpSaleData, CnpState, CnpStateName } from './types.js';

/**
 * A pre-authorization's life after its answer, as a pure transition function (the sale's own is
 * machine.ts): a capture or a void is journaled (`capturing`, `voiding`) before it leaves; its own
 * answer moves the row; a lost answer is settled by the outbox — the capture by the query and the
 * capture again of what still shows authorized (`cnp.capture`, decided by the rulebook's
 * `sale.confirm` table), a whole void by the sale's undo race (`cnp.undo`, the `sale.undo` table,
 * counted from the void's own day), a partial void by the query of what the host shows voided
 * (`cnp.void-part`, the `cnp.void (part)` table; never sent twice).
 */
type Step = MachineStep<CnpState, CnpEffect>;

/** The row moved to `name`, its data patched, with the effects that follow (the sale's machine.ts too). */
export function go(
  state: CnpState,
  name: CnpStateName,
  input: string,
  patch: Partial<CnpSaleData>,
  ...effects: CnpEffect[]
): Step {
  return { ok: true, state: { name, data: { ...state.data, ...patch } }, effects, input };
}

/** The change ended: no longer in flight. */
const ended = { change: undefined };

/** Where a capture or void was asked from, and the change's own name in reasons. */
function what(c: CnpChange): string {
  const part = c.amount !== undefined ? ` of ${c.amount}` : '';
  return c.op === 'capture' ? `capture${part}` : `void${part}`;
}

/**
 * `authorized` → `capturing`; `authorized`, `captured` or `needs-refund` (charged: the void that gives
 * it back) → `voiding` (the engine checked the host's rules first).
 */
export function changeAsked(state: CnpState, change: CnpChange): Step | undefined {
  if (change.op === 'capture' && state.name === 'authorized')
    return go(state, 'capturing', 'capture asked', { change, reason: undefined });
  if (
    change.op === 'void' &&
    (state.name === 'authorized' || state.name === 'captured' || state.name === 'needs-refund')
  )
    return go(state, 'voiding', 'void asked', { change, reason: undefined });
  return undefined;
}

/** The change took: the state and amounts the host shows after it. */
function applied(
  state: CnpState,
  c: CnpChange,
  shown: { whole: boolean; capturedCents?: number },
  input: string,
): Step {
  const d = state.data;
  if (c.op === 'capture')
    return go(state, 'captured', input, {
      ...ended,
      capturedAmount: shown.capturedCents ?? c.amount ?? d.request.amount,
    });
  const captured = d.capturedAmount ?? d.request.amount;
  if (shown.whole)
    return go(state, 'voided', input, {
      ...ended,
      ...(c.from !== 'authorized' ? { voidedAmount: captured } : {}),
    });
  // A part given back of a sale whose whole void did not take: the rest is still owed (`needs-refund`).
  const rest = c.from === 'needs-refund' ? c.from : 'captured';
  return go(state, rest, input, { ...ended, voidedAmount: (d.voidedAmount ?? 0) + (c.amount ?? 0) });
}

/** The outbox task that settles a change whose answer was lost. */
function settlement(c: CnpChange): CnpEffect {
  if (c.op === 'capture') return { kind: 'outbox.cnp-capture' };
  return c.amount === undefined ? { kind: 'outbox.cnp-undo' } : { kind: 'outbox.cnp-void-part' };
}

/** The host shows the sale voided whole (ecom:7375-7376 10, 11; the webservice's 9): nothing charged. */
function voidedWhole(shown: HostSaleState | undefined): boolean {
  return shown === 'undone' || shown === 'cancelled';
}

/** The capture's or void's own answer. */
export function changeAnswered(state: CnpState, o: CnpChangeOutcome): Step | undefined {
  const c = state.data.change;
  if (!c) return undefined;
  if (o.kind === 'done') {
    const whole = voidedWhole(o.state);
    return applied(
      state,
      c,
      { whole, ...(o.capturedCents !== undefined ? { capturedCents: o.capturedCents } : {}) },
      `${c.op} done`,
    );
  }
  if (o.kind === 'refused')
    return go(state, c.from, `${c.op} refused`, { ...ended, reason: `the host refused the ${what(c)}: ${o.detail}` });
  return go(
    state,
    state.name,
    `${c.op} unknown`,
    { reason: `the ${what(c)}'s answer was lost (${o.detail}): the query settles it` },
    settlement(c),
  );
}

/** The outbox settled a change whose answer was lost. */
export function changeDelivered(state: CnpState, input: DeliveredInput): Step | undefined {
  const c = state.data.change;
  if (!c) return undefined;
  const sale = `card-not-present sale ${state.data.merchantOrderId}`;
  if (c.op === 'capture') {
    if (input.action === 'done') return applied(state, c, { whole: false }, 'capture settled');
    return go(
      state,
      'dead-letter',
      'capture dead-letter',
      { ...ended, reason: input.reason, ...(input.shown ? { hostShows: input.shown } : {}) },
      {
        kind: 'alarm',
        code: 'CONFIRM_DEAD_LETTER',
        message: `the capture of ${sale} cannot be taken (${input.reason}): the merchant is not paid for it`,
      },
    );
  }
  if (c.amount === undefined) {
    // A whole void is the sale's undo race, ended as the card sale's (undo-settled.ts): done → voided;
    // too late → `needs-refund` with NEEDS_REFUND; given up → back where it was, with UNDO_DEAD_LETTER.
    const end = undoSettled(input, sale);
    if (end.to === 'undone') return applied(state, c, { whole: true }, 'void settled');
    const to = end.to === 'needs-refund' ? end.to : c.from;
    const reason = `the void did not take: ${end.reason}`;
    return end.alarm
      ? go(state, to, `void ${end.to}`, { ...ended, reason }, end.alarm)
      : go(state, to, `void ${end.to}`, { ...ended, reason });
  }
  if (input.action === 'done') return applied(state, c, { whole: voidedWhole(input.shown) }, 'void settled');
  return go(
    state,
    c.from,
    'void not shown',
    { ...ended, reason: input.reason },
    {
      kind: 'alarm',
      code: 'DEAD_LETTER',
      message: `the ${what(c)} of ${sale} was never shown applied (${input.reason}): nothing given back as far as the host shows; void again if the customer is owed`,
    },
  );
}
