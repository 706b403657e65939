import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CnpSaleAnswer, CnpSaleOutcome } from '../../../../src/engine/cnp-ports.js';
import { cnpTransition } from '../../../../src/engine/cnp/machine.js';
import { CNP_FINAL, CNP_STATES, type CnpState } from '../../../../src/engine/cnp/types.js';
import { SALE, decide } from '../../../../src/engine/rules/index.js';

/**
 * The card-not-present sale's machine: its answer decided by the rulebook's `sale` table (the card
 * sale's, not a copy), the undo race for what that table undoes, and nothing of the card kept.
 */
const sending = (capture: boolean): CnpState => ({
  name: 'sending',
  data: {
    request: { amount: 7700, installments: 1, capture, method: 'credit' },
    merchantOrderId: '1000000000001',
    backend: 'ecommerce',
    sentAt: '2026-11-29T12:00:00.000Z',
  },
});

const outcome = (answer: CnpSaleAnswer, extra: Partial<CnpSaleOutcome> = {}): CnpSaleOutcome => ({
  answer,
  detail: `Status for ${answer}`,
  ...extra,
});

describe('the answer of a card-not-present sale', () => {
  it.each([
    [true, outcome('approved', { paymentId: 'p-1', state: 'approved', maskedNumber: '400000******0001' }), 'captured'],
    [false, outcome('approved', { paymentId: 'p-2', state: 'pending' }), 'authorized'],
    [true, outcome('declined', { paymentId: 'p-3', state: 'declined' }), 'declined'],
    [true, outcome('refused'), 'failed'],
    [true, outcome('not-sent'), 'failed'],
    [true, outcome('unknown'), 'undoing'],
    [false, outcome('anomaly', { paymentId: 'p-4', state: 'approved' }), 'undoing'],
  ] as const)('capture %s, %o → %s', (capture, o, to) => {
    const step = cnpTransition(sending(capture), { kind: 'answered', outcome: o });
    expect(step).toMatchObject({ ok: true, state: { name: to } });
  });

  it("goes to the undo race exactly where the rulebook's sale table says undo (property)", () => {
    const answers: CnpSaleAnswer[] = ['approved', 'anomaly', 'declined', 'refused', 'not-sent', 'unknown'];
    fc.assert(
      fc.property(fc.constantFrom(...answers), fc.boolean(), (answer, capture) => {
        const step = cnpTransition(sending(capture), { kind: 'answered', outcome: outcome(answer) });
        if (!step.ok) throw new Error(step.reason);
        const undo = decide(SALE, answer).decision === 'undo';
        expect(step.state.name === 'undoing').toBe(undo);
        expect(step.effects.some((e) => e.kind === 'outbox.cnp-undo')).toBe(undo);
      }),
    );
  });

  it('an anomaly (Status 1 when capture was asked) is voided with HOST_ANOMALY', () => {
    const step = cnpTransition(sending(true), { kind: 'answered', outcome: outcome('anomaly', { paymentId: 'p' }) });
    expect(step.ok && step.effects.map((e) => e.kind)).toEqual(['outbox.cnp-undo', 'alarm']);
    expect(step.ok && step.effects[1]).toMatchObject({ code: 'HOST_ANOMALY' });
    expect(step.ok && step.state.data.paymentId).toBe('p');
  });

  it('keeps what the host echoed (the masked number, the ids), never a card field', () => {
    const step = cnpTransition(sending(true), {
      kind: 'answered',
      outcome: outcome('approved', {
        paymentId: 'p',
        state: 'approved',
        maskedNumber: '400000******0001',
        authorizationCode: '123456',
      }),
    });
    expect(step.ok && step.state.data).toMatchObject({
      paymentId: 'p',
      maskedNumber: '400000******0001',
      authorizationCode: '123456',
    });
    expect(Object.keys(step.ok ? step.state.data : {})).not.toContain('card');
  });
});

describe('the undo race settled', () => {
  const undoing: CnpState = { ...sending(true), name: 'undoing' };

  it.each([
    ['done', 'undone', undefined],
    ['needs-refund', 'needs-refund', 'NEEDS_REFUND'],
    ['dead-letter', 'dead-letter', 'UNDO_DEAD_LETTER'],
  ] as const)('%s → %s', (action, to, alarm) => {
    const step = cnpTransition(undoing, { kind: 'delivered', action, reason: 'r' });
    expect(step).toMatchObject({ ok: true, state: { name: to } });
    expect(step.ok && step.effects.map((e) => ('code' in e ? e.code : e.kind))).toEqual(alarm ? [alarm] : []);
  });

  it('refuses what does not apply: a final state takes nothing, a delivery only while undoing', () => {
    for (const name of CNP_STATES) {
      const s: CnpState = { ...sending(true), name };
      const delivered = cnpTransition(s, { kind: 'delivered', action: 'done', reason: 'r' });
      expect(delivered.ok).toBe(name === 'undoing');
      const answered = cnpTransition(s, { kind: 'answered', outcome: outcome('approved') });
      expect(answered.ok).toBe(name === 'sending');
      if (CNP_FINAL.has(name)) expect(delivered.ok || answered.ok).toBe(false);
    }
  });
});
