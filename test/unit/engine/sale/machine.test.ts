import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { saleTransition } from '../../../../src/engine/sale/machine.js';
import { paymentStatus } from '../../../../src/engine/sale/status.js';
import {
  FINAL_STATES,
  SALE_STATES,
  type CardSummary,
  type SaleContext,
  type SaleEffect,
  type SaleInput,
  type SaleRequest,
  type SaleState,
} from '../../../../src/engine/sale/types.js';
import { dayLine } from '../../../../src/operations/day/index.js';
import { assertNoCardData, type JournalEntry } from '../../../../src/store/index.js';

const now = new Date('2026-11-22T13:00:00.000Z');
const ctx: SaleContext = { now, attended: true, decisionDeadline: (n) => new Date(n.getTime() + 600_000) };
const request = (confirmation: 'auto' | 'ecr'): SaleRequest => ({
  amount: 1010,
  method: 'credit',
  installments: 1,
  interest: 'ByMerchant',
  confirmation,
});
const chipCard: CardSummary = {
  maskedPan: '401234******8909',
  inputMode: 'Emv',
  chip: true,
  isFallback: false,
  authenticationMethod: 'OnlineAuthentication',
  expiry: '1230',
  panSequenceNumber: '01',
};
const stripeCard: CardSummary = { ...chipCard, inputMode: 'MagStripe', chip: false, panSequenceNumber: undefined };
const approved: SaleInput = {
  kind: 'host-answer',
  outcome: { kind: 'approved', paymentId: 'p-1', authorizationCode: '123456', nsu: '000042' },
};

function start(confirmation: 'auto' | 'ecr' = 'auto'): SaleState {
  return { name: 'started', data: { request: request(confirmation), merchantOrderId: '263260010360003' } };
}

/** Runs inputs in order; every one must be accepted. Returns the trail of states and effects. */
function run(
  state: SaleState,
  inputs: SaleInput[],
  c: SaleContext = ctx,
): { state: SaleState; names: string[]; effects: SaleEffect[] } {
  const names: string[] = [state.name];
  const effects: SaleEffect[] = [];
  for (const input of inputs) {
    const step = saleTransition(state, input, c);
    if (!step.ok) throw new Error(step.reason);
    state = step.state;
    names.push(state.name);
    effects.push(...step.effects);
  }
  return { state, names, effects };
}

describe('card sale state machine', () => {
  it('chip, approved, receipt printed, confirmed by omnipos', () => {
    const r = run(start('auto'), [
      { kind: 'card-read', card: chipCard },
      { kind: 'authorize' },
      approved,
      { kind: 'chip-finished', card: 'approved', emv: { '9F26': 'AABBCCDDEEFF0011', '95': '0000000000' } },
      { kind: 'print' },
      { kind: 'receipt', result: 'printed' },
      { kind: 'delivered', action: 'done', reason: 'confirmed' },
    ]);
    expect(r.names).toEqual([
      'started',
      'card-read',
      'authorizing',
      'finishing-chip',
      'approved',
      'printing',
      'confirming',
      'confirmed',
    ]);
    expect(r.effects).toEqual([
      { kind: 'acquirer.sale' },
      { kind: 'pinpad.finish-chip', decision: 'approved' },
      { kind: 'receipt.start' },
      { kind: 'print.receipt' },
      { kind: 'outbox.confirm' },
    ]);
    expect(r.state.data).toMatchObject({
      paymentId: 'p-1',
      authorizationCode: '123456',
      nsu: '000042',
      receipt: 'printed',
      sentAt: now.toISOString(),
    });
    expect(r.state.data.emv?.['9F26']).toBe('AABBCCDDEEFF0011');
  });

  it('stripe, approved, awaits the cash register until a deadline, which undoes it', () => {
    const r = run(start('ecr'), [
      { kind: 'card-read', card: stripeCard },
      { kind: 'authorize' },
      approved,
      { kind: 'print' },
      { kind: 'receipt', result: 'printed' },
    ]);
    expect(r.names.slice(-3)).toEqual(['approved', 'printing', 'awaiting-decision']);
    expect(r.state.data.deadline).toBe('2026-11-22T13:10:00.000Z');
    expect(r.effects).toContainEqual({ kind: 'schedule.deadline', at: '2026-11-22T13:10:00.000Z' });
    expect(paymentStatus(r.state.name)).toBe('approved');
    const undone = run(r.state, [
      { kind: 'decision', decision: 'undo', by: 'deadline' },
      { kind: 'delivered', action: 'done', reason: 'undone' },
    ]);
    expect(undone.names).toEqual(['awaiting-decision', 'undoing', 'undone']);
    expect(undone.effects).toEqual([{ kind: 'outbox.undo', by: 'paymentId' }]);
    const confirmed = run(r.state, [{ kind: 'decision', decision: 'confirm', by: 'ecr' }]);
    expect(confirmed.effects).toEqual([{ kind: 'outbox.confirm' }]);
  });

  it('host silent mid-chip: the card is told "no communication", then the sale is undone by order id', () => {
    const r = run(start(), [
      { kind: 'card-read', card: chipCard },
      { kind: 'authorize' },
      { kind: 'host-answer', outcome: { kind: 'unknown', reason: 'timeout' } },
    ]);
    expect(r.state.name).toBe('undoing');
    expect(r.effects.slice(1)).toEqual([
      { kind: 'pinpad.finish-chip', decision: 'no-communication' },
      { kind: 'outbox.undo', by: 'orderId' },
    ]);
  });

  it('card declines after the issuer approved: undo with the card data', () => {
    const r = run(start(), [
      { kind: 'card-read', card: chipCard },
      { kind: 'authorize' },
      approved,
      { kind: 'chip-finished', card: 'declined', emv: { '9F27': '00' } },
    ]);
    expect(r.state).toMatchObject({
      name: 'undoing',
      data: { reason: 'card declined after the host approved', emv: { '9F27': '00' }, paymentId: 'p-1' },
    });
    expect(r.effects.at(-1)).toEqual({ kind: 'outbox.undo', by: 'paymentId' });
    expect(r.effects).not.toContainEqual({ kind: 'print.receipt' });
  });

  it('a cancel while the request is out undoes whatever comes back approved', () => {
    const r = run(start(), [
      { kind: 'card-read', card: stripeCard },
      { kind: 'authorize' },
      { kind: 'cancel', by: 'ecr' },
      approved,
    ]);
    expect(r.state.name).toBe('undoing');
    expect(r.effects.at(-1)).toEqual({ kind: 'outbox.undo', by: 'paymentId' });
  });

  it('declined, refused and not-sent end without any request to confirm or undo', () => {
    for (const outcome of [
      { kind: 'declined', paymentId: 'p-9', returnCode: '57' },
      { kind: 'refused', status: 400, returnCode: '126' },
      { kind: 'not-sent' },
    ] as const) {
      const r = run(start(), [
        { kind: 'card-read', card: chipCard },
        { kind: 'authorize' },
        { kind: 'host-answer', outcome },
      ]);
      expect(r.state.name).toBe(outcome.kind === 'declined' ? 'declined' : 'failed');
      expect(r.effects.filter((e) => e.kind.startsWith('outbox.'))).toEqual([]);
      expect(r.effects.at(-1)).toEqual({
        kind: 'pinpad.finish-chip',
        decision: outcome.kind === 'declined' ? 'declined' : 'no-communication',
        // The pinpad's text after a refusal is the machine's word, not read off the reason's text.
        ...(outcome.kind === 'refused' ? { message: 'FALHA NA TRANSACAO' } : {}),
      });
    }
  });

  it('authorized but not captured (Status 1) is undone with an alarm', () => {
    const r = run(start(), [
      { kind: 'card-read', card: stripeCard },
      { kind: 'authorize' },
      { kind: 'host-answer', outcome: { kind: 'anomaly', paymentId: 'p-2', reason: 'authorized-not-captured' } },
    ]);
    expect(r.state.name).toBe('undoing');
    expect(r.effects.map((e) => e.kind)).toEqual(['acquirer.sale', 'pinpad.end', 'alarm', 'outbox.undo']);
  });

  it('a receipt that did not come out undoes the sale; an unsure one asks the cashier (undone at the deadline), or undoes on a kiosk', () => {
    const approvedState = run(start(), [
      { kind: 'card-read', card: stripeCard },
      { kind: 'authorize' },
      approved,
    ]).state;
    expect(saleTransition(approvedState, { kind: 'receipt', result: 'printed' }, ctx).ok).toBe(false);
    const at = run(approvedState, [{ kind: 'print' }]).state;
    expect(at.name).toBe('printing');
    const asked = run(at, [{ kind: 'receipt', result: 'unsure' }]);
    expect(asked.state).toMatchObject({ name: 'printing', data: { deadline: '2026-11-22T13:10:00.000Z' } });
    expect(asked.effects).toEqual([
      { kind: 'ask.receipt' },
      { kind: 'schedule.deadline', at: '2026-11-22T13:10:00.000Z' },
    ]);
    expect(run(asked.state, [{ kind: 'receipt', result: 'printed' }]).state.name).toBe('confirming');
    expect(run(asked.state, [{ kind: 'decision', decision: 'undo', by: 'deadline' }]).state).toMatchObject({
      name: 'undoing',
      data: { reason: 'no answer about the receipt before the deadline' },
    });
    expect(run(at, [{ kind: 'receipt', result: 'failed' }]).state.name).toBe('undoing');
    expect(run(at, [{ kind: 'receipt', result: 'unsure' }], { ...ctx, attended: false }).state).toMatchObject({
      name: 'undoing',
      data: { reason: 'nobody can tell whether the receipt came out' },
    });
    expect(run(at, [{ kind: 'receipt', result: 'skipped' }]).state.name).toBe('confirming');
  });

  it('"receipt": false: the receipt step records skipped and nothing is printed', () => {
    const noReceipt: SaleState = {
      name: 'started',
      data: { ...start().data, request: { ...request('auto'), receipt: false } },
    };
    const r = run(noReceipt, [
      { kind: 'card-read', card: stripeCard },
      { kind: 'authorize' },
      approved,
      { kind: 'print' },
    ]);
    expect(r.names.slice(-2)).toEqual(['approved', 'confirming']);
    expect(r.state.data.receipt).toBe('skipped');
    expect(r.effects.map((e) => e.kind)).not.toContain('print.receipt');
  });

  it('an undo the host answers too late becomes needs-refund with an alarm', () => {
    const at = run(start(), [
      { kind: 'card-read', card: stripeCard },
      { kind: 'authorize' },
      approved,
      { kind: 'print' },
      { kind: 'receipt', result: 'failed' },
    ]).state;
    const r = run(at, [{ kind: 'delivered', action: 'needs-refund', reason: 'confirmed at the daily close' }]);
    expect(r.state.name).toBe('needs-refund');
    expect(r.effects[0]).toMatchObject({ kind: 'alarm', code: 'NEEDS_REFUND' });
  });

  it('refuses inputs that do not belong to the state, naming both, and final states take nothing', () => {
    expect(saleTransition(start(), approved, ctx)).toEqual({
      ok: false,
      reason: 'input host-answer is not valid in state started',
    });
    for (const name of FINAL_STATES) {
      expect(saleTransition({ name, data: start().data }, { kind: 'cancel', by: 'ecr' }, ctx).ok).toBe(false);
    }
  });

  it('never confirms and undoes the same sale, never ends an approved sale without a decision, and journals no card data (property)', () => {
    const card = fc.constantFrom(chipCard, stripeCard);
    const input: fc.Arbitrary<SaleInput> = fc.oneof(
      card.map((c) => ({ kind: 'card-read', card: c }) as const),
      fc.constant({ kind: 'card-failed', reason: 'removed' } as const),
      fc.constant({ kind: 'authorize' } as const),
      fc.constantFrom('ecr', 'customer', 'operator').map((by): SaleInput => ({ kind: 'cancel', by })),
      fc.constantFrom(
        approved,
        { kind: 'host-answer', outcome: { kind: 'declined' } } as SaleInput,
        { kind: 'host-answer', outcome: { kind: 'unknown', reason: 'timeout' } } as SaleInput,
        { kind: 'host-answer', outcome: { kind: 'anomaly', paymentId: 'p-3', reason: 'x' } } as SaleInput,
        { kind: 'host-answer', outcome: { kind: 'not-sent' } } as SaleInput,
      ),
      fc.constantFrom('approved', 'declined', 'failed').map((c): SaleInput => ({ kind: 'chip-finished', card: c })),
      fc.constant({ kind: 'print' } as const),
      fc
        .constantFrom('printed', 'skipped', 'failed', 'unsure')
        .map((result): SaleInput => ({ kind: 'receipt', result })),
      fc.constantFrom('confirm', 'undo').map((decision): SaleInput => ({ kind: 'decision', decision, by: 'ecr' })),
      fc.constant({ kind: 'decision', decision: 'undo', by: 'deadline' } as const),
      fc
        .constantFrom('done', 'dead-letter', 'needs-refund')
        .map((action): SaleInput => ({ kind: 'delivered', action, reason: 'r' })),
    );
    const seed = Date.now();
    console.log(`sale machine property seed ${seed}`);
    fc.assert(
      fc.property(
        fc.constantFrom('auto', 'ecr'),
        fc.boolean(),
        fc.boolean(),
        fc.array(input, { maxLength: 30 }),
        (mode, attended, wantsReceipt, inputs) => {
          let state: SaleState = {
            ...start(mode),
            data: { ...start(mode).data, request: { ...request(mode), ...(wantsReceipt ? {} : { receipt: false }) } },
          };
          let hostApproved = false;
          const durable = new Set<string>();
          for (const i of inputs) {
            const step = saleTransition(state, i, { ...ctx, attended });
            if (!step.ok) continue;
            if (
              state.name === 'authorizing' &&
              i.kind === 'host-answer' &&
              (i.outcome.kind === 'approved' || i.outcome.kind === 'anomaly' || i.outcome.kind === 'unknown')
            )
              hostApproved = true;
            for (const e of step.effects)
              if (e.kind === 'outbox.confirm' || e.kind === 'outbox.undo') durable.add(e.kind);
            const kinds = step.effects.map((e) => e.kind);
            // Bytes go to the printer only from a committed `printing`, and never for a declined receipt.
            if (kinds.includes('print.receipt') && (step.state.name !== 'printing' || !wantsReceipt)) return false;
            // A receipt counts as printed only when it left `printing`; a kiosk never asks.
            if (step.state.data.receipt === 'printed' && state.data.receipt !== 'printed' && state.name !== 'printing')
              return false;
            if (!attended && kinds.includes('ask.receipt')) return false;
            // Declined receipt: the step records skipped, never printed.
            if (!wantsReceipt && (step.state.name === 'printing' || step.state.data.receipt === 'printed'))
              return false;
            state = step.state;
            assertNoCardData(state.data, 'journal.data');
            if (!SALE_STATES.includes(state.name)) return false;
          }
          if (durable.has('outbox.confirm') && durable.has('outbox.undo')) return false;
          if (hostApproved && ['aborted', 'declined', 'failed'].includes(state.name)) return false;
          return true;
        },
      ),
      { numRuns: 2000, seed },
    );
  });
});

describe('a card the tables do not take for the sale', () => {
  it('ends refused, with its refusal and reason, nothing sent: not cancelled as if the customer had', () => {
    const step = saleTransition(
      { name: 'started', data: { request: request('auto'), merchantOrderId: '263260010360003' } },
      { kind: 'card-refused', reason: 'the card has no PhysicalDebitCard product', refusal: 'no-product-of-type' },
      ctx,
    );
    expect(step.ok).toBe(true);
    if (!step.ok) return;
    expect(step.state.name).toBe('refused');
    expect(paymentStatus(step.state.name)).toBe('refused');
    expect(step.state.data).toMatchObject({ refusal: 'no-product-of-type', reason: expect.stringMatching(/Debit/) });
    expect(step.effects.map((e) => e.kind)).toEqual(['pinpad.end']);
  });

  // A confirmation given up on what the host showed (Status 10/13 on its query, or its 2xx body): the sale records
  // it, as the card-not-present sale does, and the day reads the dead letter by it (one rule for every kind).
  it.each([
    ['cancelled', 'cancelled'],
    ['undone', 'undone'],
    ['declined', 'declined'],
  ] as const)(
    'a confirmation dead-lettered while the host shows the sale %s records it: the day counts nothing charged',
    (shown, outcome) => {
      const confirming = run(start('auto'), [
        { kind: 'card-read', card: stripeCard },
        { kind: 'authorize' },
        approved,
        { kind: 'print' },
        { kind: 'receipt', result: 'printed' },
      ]).state;
      expect(confirming.name).toBe('confirming');
      const dead = run(confirming, [
        { kind: 'delivered', action: 'dead-letter', reason: 'the query shows Status 10', shown },
      ]);
      expect(dead.state).toMatchObject({ name: 'dead-letter', data: { hostShows: shown } });
      expect(dead.effects).toEqual([expect.objectContaining({ kind: 'alarm', code: 'CONFIRM_DEAD_LETTER' })]);
      const row = (s: SaleState): JournalEntry => ({
        id: 1,
        kind: 'sale',
        merchantOrderId: s.data.merchantOrderId,
        state: s.name,
        amount: 1010,
        data: { ...s.data },
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      });
      expect(dayLine(row(dead.state))).toMatchObject({ outcome, charged: 0 });
      // Given up with nothing shown (the host may hold it): counted charged until a person looks.
      const blind = run(confirming, [{ kind: 'delivered', action: 'dead-letter', reason: 'x' }]).state;
      expect(blind.data.hostShows).toBeUndefined();
      expect(dayLine(row(blind))).toMatchObject({ outcome: 'dead-letter', charged: 1010 });
    },
  );
});
