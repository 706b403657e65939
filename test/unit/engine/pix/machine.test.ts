import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pixTransition } from '../../../../src/engine/pix/machine.js';
import type { PixInput, PixState } from '../../../../src/engine/pix/types.js';
import type { SaleContext } from '../../../../src/engine/sale/types.js';

/**
 * How a Pix that nobody paid ends: the code's expiry and a cancel both lead to `cancelling` (the
 * charge is withdrawn at the host), and what tells them apart is the typed `expired` flag the
 * expiry sets — `omnipos pix sale` exits 5 on it, 6 on a cancel. It used to be the reason's text
 * (`/expired/` in src/cli/qr-sale.ts): a reworded reason would have turned expiries into cancels.
 */
const ctx: SaleContext = {
  now: new Date('2026-11-22T13:00:00Z'),
  attended: true,
  decisionDeadline: (n) => new Date(n.getTime() + 60_000),
};
const showing: PixState = {
  name: 'showing',
  data: {
    request: { amount: 100, payer: { name: 'Ana', document: '52998224725' }, confirmation: 'auto' },
    merchantOrderId: '2',
    paymentId: 'p',
    qrCode: 'x',
    expiresAt: '2026-11-22T13:15:00Z',
  },
};

describe('a Pix code nobody pays', () => {
  it('expiry: cancelling, flagged expired, the charge withdrawn', () => {
    const step = pixTransition(showing, { kind: 'expired' }, ctx);
    expect(step).toMatchObject({ ok: true, state: { name: 'cancelling', data: { expired: true } } });
    expect(step.ok && step.effects.map((e) => e.kind)).toEqual(['outbox.pix-cancel']);
  });

  it('a cancel by anyone: cancelling, never flagged expired (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom<'ecr' | 'customer' | 'operator'>('ecr', 'customer', 'operator'), (by) => {
        const step = pixTransition(showing, { kind: 'cancel', by }, ctx);
        expect(step).toMatchObject({ ok: true, state: { name: 'cancelling' } });
        expect(step.ok && step.state.data.expired).toBeUndefined();
      }),
    );
  });

  it('the flag stays through the withdrawal to cancelled, whatever the reason text says', () => {
    const expiring = pixTransition(showing, { kind: 'expired' }, ctx);
    if (!expiring.ok) throw new Error(expiring.reason);
    const input: PixInput = { kind: 'delivered', action: 'done', reason: 'withdrawn' };
    const done = pixTransition(expiring.state, input, ctx);
    expect(done).toMatchObject({ ok: true, state: { name: 'cancelled', data: { expired: true } } });
  });
});
