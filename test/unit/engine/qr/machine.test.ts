import { describe, expect, it } from 'vitest';
import { modality, qrTimestamp } from '../../../../src/engine/qr/code.js';
import { qrTransition } from '../../../../src/engine/qr/machine.js';
import type { QrInput, QrState } from '../../../../src/engine/qr/types.js';
import type { SaleContext } from '../../../../src/engine/sale/types.js';

const ctx: SaleContext = {
  now: new Date('2026-11-22T13:00:00Z'),
  attended: true,
  decisionDeadline: (n) => new Date(n.getTime() + 60_000),
};
const start: QrState = {
  name: 'started',
  data: {
    request: { amount: 100, method: 'credit', installments: 1, interest: 'ByMerchant', confirmation: 'auto' },
    merchantOrderId: '1',
  },
};

function run(inputs: QrInput[], state = start) {
  const names: string[] = [state.name];
  const effects: string[] = [];
  for (const i of inputs) {
    const s = qrTransition(state, i, ctx);
    if (!s.ok) throw new Error(s.reason);
    state = s.state;
    names.push(state.name);
    effects.push(...s.effects.map((e) => e.kind));
  }
  return { state, names, effects };
}

const shown: QrInput = { kind: 'shown', qrCode: 'x', nsu: '000001', expiresAt: '2026-11-22T13:15:00Z' };

describe('wallet QR sale machine', () => {
  it('an unpaid code that expires is watched, then ends expired; a late payment found is undone with an alarm', () => {
    const r = run([shown, { kind: 'expired' }, { kind: 'delivered', action: 'done', reason: 'none' }]);
    expect(r.names).toEqual(['started', 'showing', 'expiring', 'expired']);
    expect(r.effects).toEqual(['watch.payment', 'outbox.watch']);
    const late = run([
      shown,
      { kind: 'cancel', by: 'ecr' },
      { kind: 'delivered', action: 'done', reason: 'undone', late: true },
    ]);
    expect(late.state.name).toBe('undone');
    expect(late.effects.at(-1)).toBe('alarm');
  });

  it('a payment found late is recorded where a payment seen on time is (its PaymentId and authorization), however the watch ends', () => {
    const payment = { paymentId: 'p-late', authorization: { authorizationCode: 'A1', nsu: '777' } };
    const onTime = run([shown, { kind: 'paid', ...payment }]).state.data;
    const ends: QrInput[] = [
      { kind: 'delivered', action: 'done', reason: 'undone', late: true, payment },
      { kind: 'delivered', action: 'needs-refund', reason: 'confirmed', payment },
      { kind: 'delivered', action: 'dead-letter', reason: 'undo refused', payment },
    ];
    for (const end of ends) {
      const data = run([shown, { kind: 'expired' }, end]).state.data;
      expect(data).toMatchObject({
        paymentId: onTime.paymentId,
        authorizationCode: onTime.authorizationCode,
        hostNsu: onTime.hostNsu,
      });
    }
  });

  it('paid: receipt, then confirmation by omnipos or by the cash register', () => {
    const paid = run([
      shown,
      { kind: 'paid', paymentId: 'p' },
      { kind: 'print' },
      { kind: 'receipt', result: 'printed' },
    ]);
    expect(paid.effects).toEqual(['watch.payment', 'receipt.start', 'print.receipt', 'outbox.confirm']);
    expect(paid.names).toEqual(['started', 'showing', 'approved', 'printing', 'confirming']);
    const ecr = { ...start, data: { ...start.data, request: { ...start.data.request, confirmation: 'ecr' as const } } };
    expect(
      run([shown, { kind: 'paid', paymentId: 'p' }, { kind: 'print' }, { kind: 'receipt', result: 'printed' }], ecr)
        .state,
    ).toMatchObject({ name: 'awaiting-decision', data: { deadline: '2026-11-22T13:01:00.000Z' } });
  });

  it('refuses a payment before the code is shown and anything in a final state', () => {
    expect(qrTransition(start, { kind: 'paid', paymentId: 'p' }, ctx).ok).toBe(false);
    expect(qrTransition({ ...start, name: 'expired' }, { kind: 'cancel', by: 'ecr' }, ctx).ok).toBe(false);
  });

  it('81.02 modality and 81.01 timestamp in host time', () => {
    expect(modality({ method: 'debit', installments: 1, interest: 'ByMerchant' })).toBe('0001');
    expect(modality({ method: 'credit', installments: 1, interest: 'ByMerchant' })).toBe('0002');
    expect(modality({ method: 'credit', installments: 3, interest: 'ByMerchant' })).toBe('0004');
    expect(modality({ method: 'credit', installments: 3, interest: 'ByIssuer' })).toBe('0008');
    expect(qrTimestamp(new Date('2026-11-22T13:04:05Z'))).toBe('221126100405');
  });
});
