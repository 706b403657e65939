import { describe, expect, it } from 'vitest';
import { saleTransition } from '../../../../src/engine/sale/machine.js';
import { SALE, saleTable, type SaleCreateAnswer } from '../../../../src/engine/rules/index.js';
import type { HostSaleOutcome, SaleContext, SaleState } from '../../../../src/engine/sale/types.js';

const now = new Date('2026-11-22T13:00:00.000Z');
const ctx: SaleContext = { now, attended: true, decisionDeadline: (n) => new Date(n.getTime() + 600_000) };

function authorizing(chip = false): SaleState {
  return {
    name: 'authorizing',
    data: {
      request: { amount: 1010, method: 'credit', installments: 1, interest: 'ByMerchant', confirmation: 'ecr' },
      merchantOrderId: '263260010360003',
      card: {
        maskedPan: '401234******8906',
        inputMode: chip ? 'Emv' : 'MagStripe',
        chip,
        isFallback: false,
        authenticationMethod: 'OnlineAuthentication',
        expiry: '1230',
      },
      sentAt: now.toISOString(),
    },
  };
}

/** One host answer of each row of the sale table (rules/book-create.ts SALE). */
const ANSWERS: Record<SaleCreateAnswer, HostSaleOutcome> = {
  approved: { kind: 'approved', paymentId: 'p-1' },
  anomaly: { kind: 'anomaly', paymentId: 'p-1', reason: 'authorized-not-captured' },
  declined: { kind: 'declined', paymentId: 'p-1', returnCode: '05' },
  'unclear-decline': { kind: 'declined', paymentId: 'p-1', returnCode: '99', unclear: 'Status 3 with ReturnCode 99' },
  refused: { kind: 'refused', status: 400, returnCode: '126' },
  'not-sent': { kind: 'not-sent' },
  unknown: { kind: 'unknown', reason: 'timeout' },
};

function after(outcome: HostSaleOutcome, c: SaleContext = ctx, chip = false) {
  const step = saleTransition(authorizing(chip), { kind: 'host-answer', outcome }, c);
  if (!step.ok) throw new Error(step.reason);
  return step;
}

/** The sale machine decides the host's answer by the rulebook's sale table, not by a copy of it (issue 29). */
describe('the sale machine reads the sale table', () => {
  it.each(Object.keys(SALE) as SaleCreateAnswer[])('row %s: undone exactly when the table says undo', (row) => {
    const step = after(ANSWERS[row]);
    const undoes = step.effects.some((e) => e.kind === 'outbox.undo');
    expect(undoes).toBe(SALE[row].decision === 'undo');
    expect(step.state.name === 'undoing').toBe(SALE[row].decision === 'undo');
  });

  it('payments.undoUnclearDeclines: a Status 3 with 99 "Time out" is undone by its PaymentId (pt:7330)', () => {
    // On cfef2df no such switch existed and every decline ended declined, never undone.
    const on = { ...ctx, undoUnclearDeclines: true };
    const step = after(ANSWERS['unclear-decline'], on);
    expect(step.state.name).toBe('undoing');
    expect(step.effects).toContainEqual({ kind: 'outbox.undo', by: 'paymentId' });
    expect(step.effects).toContainEqual({ kind: 'pinpad.end', message: 'NAO AUTORIZADA' });
    expect(saleTable(on)['unclear-decline'].decision).toBe('undo');
  });

  it('with the switch on, a 4xx with Code 0 is undone by order id (no PaymentId came back); a clear decline is not', () => {
    const on = { ...ctx, undoUnclearDeclines: true };
    const zero = after({ kind: 'refused', status: 400, returnCode: '0', unclear: 'code 0' }, on, true);
    expect(zero.state.name).toBe('undoing');
    expect(zero.effects).toContainEqual({ kind: 'outbox.undo', by: 'orderId' });
    expect(zero.effects).toContainEqual({ kind: 'pinpad.finish-chip', decision: 'declined' });
    expect(after(ANSWERS.declined, on).state.name).toBe('declined');
    expect(after(ANSWERS['unclear-decline']).state.name).toBe('declined');
  });

  it('the anomaly row keeps its alarm; the unknown row tells the card there was no communication', () => {
    expect(after(ANSWERS.anomaly).effects.map((e) => e.kind)).toContain('alarm');
    expect(after(ANSWERS.unknown, ctx, true).effects).toContainEqual({
      kind: 'pinpad.finish-chip',
      decision: 'no-communication',
    });
  });
});
