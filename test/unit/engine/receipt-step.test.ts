import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pixTransition } from '../../../src/engine/pix/machine.js';
import type { PixInput, PixState } from '../../../src/engine/pix/types.js';
import { qrTransition } from '../../../src/engine/qr/machine.js';
import { saleTransition } from '../../../src/engine/sale/machine.js';
import type { QrInput, QrState } from '../../../src/engine/qr/types.js';
import type { SaleContext, SaleInput, SaleState } from '../../../src/engine/sale/types.js';

/**
 * The receipt step the wallet QR and Pix machines share with the card sale: approved → printing
 * (committed before a byte goes out) → the printer's word; `receipt: false` records `skipped`.
 */
const ctx: SaleContext = {
  now: new Date('2026-11-22T13:00:00Z'),
  attended: true,
  decisionDeadline: (n) => new Date(n.getTime() + 60_000),
};

const qrStart = (confirmation: 'auto' | 'ecr', receipt?: boolean): QrState => ({
  name: 'started',
  data: {
    request: {
      amount: 100,
      method: 'credit',
      installments: 1,
      interest: 'ByMerchant',
      confirmation,
      ...(receipt === false ? { receipt } : {}),
    },
    merchantOrderId: '1',
  },
});
const pixStart = (confirmation: 'auto' | 'ecr', receipt?: boolean): PixState => ({
  name: 'creating',
  data: {
    request: {
      amount: 100,
      payer: { name: 'Ana', document: '52998224725' },
      confirmation,
      ...(receipt === false ? { receipt } : {}),
    },
    merchantOrderId: '2',
  },
});

type Step =
  | { ok: true; state: { name: string; data: { receipt?: string } }; effects: { kind: string }[] }
  | { ok: false; reason: string };

function drive<S extends { name: string; data: { receipt?: string } }, I>(
  t: (s: S, i: I, c: SaleContext) => Step,
  s: S,
  inputs: I[],
  c = ctx,
): { state: S; names: string[]; effects: string[] } {
  const names = [s.name];
  const effects: string[] = [];
  for (const i of inputs) {
    const step = t(s, i, c);
    if (!step.ok) throw new Error(step.reason);
    s = step.state as S;
    names.push(s.name);
    effects.push(...step.effects.map((e) => e.kind));
  }
  return { state: s, names, effects };
}

const qrPaid: QrInput[] = [
  { kind: 'shown', qrCode: 'x', nsu: '000001', expiresAt: '2026-11-22T13:15:00Z' },
  { kind: 'paid', paymentId: 'p' },
];
const pixPaid: PixInput[] = [
  { kind: 'created', result: { kind: 'created', paymentId: 'p', qrCode: 'x' }, expiresAt: '2026-11-22T13:15:00Z' },
  { kind: 'paid' },
];

describe('the receipt step of the wallet QR and Pix machines', () => {
  it('wallet QR: paper out mid-receipt (unsure) asks the cashier from printing; a kiosk undoes; no receipt records skipped', () => {
    const printing = drive(qrTransition, qrStart('auto'), [...qrPaid, { kind: 'print' }]);
    expect(printing.names.slice(-2)).toEqual(['approved', 'printing']);
    const asked = drive(qrTransition, printing.state, [{ kind: 'receipt', result: 'unsure' }]);
    expect(asked).toMatchObject({ names: ['printing', 'printing'], effects: ['ask.receipt', 'schedule.deadline'] });
    expect(drive(qrTransition, asked.state, [{ kind: 'receipt', result: 'failed' }]).state.name).toBe('undoing');
    expect(drive(qrTransition, asked.state, [{ kind: 'decision', decision: 'undo', by: 'deadline' }]).state.name).toBe(
      'undoing',
    );
    expect(
      drive(qrTransition, printing.state, [{ kind: 'receipt', result: 'unsure' }], { ...ctx, attended: false }).state
        .name,
    ).toBe('undoing');
    const skipped = drive(qrTransition, qrStart('auto', false), [...qrPaid, { kind: 'print' }]);
    expect(skipped.state).toMatchObject({ name: 'confirming', data: { receipt: 'skipped' } });
    expect(skipped.effects).not.toContain('print.receipt');
  });

  it('Pix: the same, with a refund where a card sale undoes', () => {
    const printing = drive(pixTransition, pixStart('ecr'), [...pixPaid, { kind: 'print' }]);
    expect(printing.names.slice(-2)).toEqual(['approved', 'printing']);
    expect(drive(pixTransition, printing.state, [{ kind: 'receipt', result: 'printed' }]).state).toMatchObject({
      name: 'awaiting-decision',
      data: { receipt: 'printed' },
    });
    expect(drive(pixTransition, printing.state, [{ kind: 'receipt', result: 'unsure' }]).effects).toEqual([
      'ask.receipt',
      'schedule.deadline',
    ]);
    expect(
      drive(pixTransition, printing.state, [{ kind: 'receipt', result: 'unsure' }], { ...ctx, attended: false }).state
        .name,
    ).toBe('refunding');
    expect(drive(pixTransition, pixStart('auto', false), [...pixPaid, { kind: 'print' }]).state).toMatchObject({
      name: 'confirmed',
      data: { receipt: 'skipped' },
    });
  });

  const receiptInputs = [
    fc.constant({ kind: 'print' } as const),
    fc.constantFrom('printed', 'skipped', 'failed', 'unsure').map((result) => ({ kind: 'receipt', result }) as const),
    fc.constantFrom('confirm', 'undo').map((decision) => ({ kind: 'decision', decision, by: 'ecr' }) as const),
    fc.constant({ kind: 'decision', decision: 'undo', by: 'deadline' } as const),
    fc.constantFrom('ecr', 'customer').map((by) => ({ kind: 'cancel', by }) as const),
    fc
      .constantFrom('done', 'dead-letter', 'needs-refund')
      .map((action) => ({ kind: 'delivered', action, reason: 'r' }) as const),
    fc.constant({ kind: 'expired' } as const),
  ];

  /** Bytes only from a committed `printing`, `printed` only out of `printing`, no question on a kiosk, nothing printed when declined. */
  function receiptInvariants(
    prev: { name: string; data: { receipt?: string } },
    step: Step,
    attended: boolean,
    wantsReceipt: boolean,
  ): boolean {
    if (!step.ok) return true;
    const kinds = step.effects.map((e) => e.kind);
    if (kinds.includes('print.receipt') && (step.state.name !== 'printing' || !wantsReceipt)) return false;
    if (step.state.data.receipt === 'printed' && prev.data.receipt !== 'printed' && prev.name !== 'printing')
      return false;
    if (!attended && kinds.includes('ask.receipt')) return false;
    if (!wantsReceipt && (step.state.name === 'printing' || step.state.data.receipt === 'printed')) return false;
    return true;
  }

  it('wallet QR and Pix keep the receipt step invariants (property)', () => {
    const seed = Date.now();
    console.log(`receipt step property seed ${seed}`);
    const qrInput: fc.Arbitrary<QrInput> = fc.oneof(...receiptInputs, fc.constantFrom(...qrPaid));
    const pixInput: fc.Arbitrary<PixInput> = fc.oneof(...receiptInputs, fc.constantFrom(...pixPaid));
    fc.assert(
      fc.property(
        fc.constantFrom('auto', 'ecr'),
        fc.boolean(),
        fc.boolean(),
        fc.array(qrInput, { maxLength: 20 }),
        fc.array(pixInput, { maxLength: 20 }),
        (mode, attended, wantsReceipt, qi, pi) => {
          const c = { ...ctx, attended };
          let q = qrStart(mode, wantsReceipt ? undefined : false);
          for (const i of qi) {
            const step = qrTransition(q, i, c);
            if (!receiptInvariants(q, step, attended, wantsReceipt)) return false;
            if (step.ok) q = step.state;
          }
          let p = pixStart(mode, wantsReceipt ? undefined : false);
          for (const i of pi) {
            const step = pixTransition(p, i, c);
            if (!receiptInvariants(p, step, attended, wantsReceipt)) return false;
            if (step.ok) p = step.state;
          }
          return true;
        },
      ),
      { numRuns: 2000, seed },
    );
  });

  it('the card sale takes the same receipt step as the wallet QR sale: same states, labels, reasons and effects from approved until it leaves the step (property)', () => {
    const seed = Date.now();
    console.log(`card receipt step property seed ${seed}`);
    const stepInputs = fc.oneof(...receiptInputs.slice(0, 5)) as fc.Arbitrary<SaleInput & QrInput>;
    const view = (step: ReturnType<typeof saleTransition> | ReturnType<typeof qrTransition>) =>
      step.ok
        ? {
            name: step.state.name,
            input: step.input,
            reason: step.state.data.reason,
            receipt: step.state.data.receipt,
            deadline: step.state.data.deadline,
            effects: step.effects.map((e) => e.kind),
          }
        : 'refused';
    fc.assert(
      fc.property(
        fc.constantFrom('auto', 'ecr'),
        fc.boolean(),
        fc.boolean(),
        fc.array(stepInputs, { maxLength: 8 }),
        (mode, attended, wantsReceipt, inputs) => {
          const c = { ...ctx, attended };
          const q0 = qrStart(mode, wantsReceipt ? undefined : false);
          let q: QrState = { name: 'approved', data: { ...q0.data, paymentId: 'p' } };
          let s: SaleState = { name: 'approved', data: { ...q0.data, paymentId: 'p' } };
          for (const i of inputs) {
            if (q.name !== 'approved' && q.name !== 'printing') break;
            const qs = qrTransition(q, i, c);
            const ss = saleTransition(s, i, c);
            expect(view(ss)).toEqual(view(qs));
            if (qs.ok && ss.ok) {
              q = qs.state;
              s = ss.state;
            }
          }
        },
      ),
      { numRuns: 1000, seed },
    );
  });
});
