import { describe, expect, it } from 'vitest';
import { saleOutcome, voidOutcome, type Exchange } from '../../../../src/acquirer/omni/outcomes.js';
import { OMNI_SALE_STATES, omniSaleState } from '../../../../src/acquirer/omni/states.js';
import { SALE, SALE_CREATE_SHOWN, VOID, saleTable } from '../../../../src/engine/rules/index.js';

const answer = (status: number, body: unknown): Exchange => ({ kind: 'answer', status, body });
const pay = (p: Record<string, unknown>): unknown => ({ MerchantOrderId: '1', Payment: { PaymentId: 'pid', ...p } });

/**
 * The sale and void answers read through the one state table (states.ts) and named as the
 * rulebook's answers (rules/book-create.ts): the same numbers mean the same thing on a create, a
 * query, a confirmation and an undo (issue 29, "the rule lives once").
 */
describe('the sale answer, read by the one state table', () => {
  it('reads Status 13 (pt:2515 "13 = Abortado": nothing charged) as declined, as every other table does', () => {
    // On cfef2df the create had its own ladder: 13 was "unknown" and the sale went to the undo race.
    expect(saleOutcome(answer(201, pay({ Status: 13 }))).kind).toBe('declined');
    expect(omniSaleState({ status: 13 })).toBe('declined');
  });

  it('reads every Status of pt:2515 as the state table reads it, through SALE_CREATE_SHOWN', () => {
    for (const row of OMNI_SALE_STATES)
      for (const status of row.status ?? []) {
        const kind = saleOutcome(answer(201, pay({ Status: status }))).kind;
        const expected = status === 1 ? 'anomaly' : SALE_CREATE_SHOWN[omniSaleState({ status })];
        expect(kind, `Status ${status}`).toBe(expected);
      }
  });

  it('names a decline that does not say so clearly (pt:7330): Status 3 with 99 "Time out", a 4xx with Code 0', () => {
    const timeOut = saleOutcome(answer(201, pay({ Status: 3, ReturnCode: '99', ReturnMessage: 'Time out' })));
    expect(timeOut).toMatchObject({ kind: 'declined', unclear: expect.stringContaining('Time out') });
    const zero = saleOutcome(answer(400, [{ Code: 0, Message: 'x' }]));
    expect(zero).toMatchObject({ kind: 'refused', unclear: expect.stringContaining('success') });
    expect(saleOutcome(answer(201, pay({ Status: 3, ReturnCode: '05' })))).not.toHaveProperty('unclear');
    expect(saleOutcome(answer(400, [{ Code: 302, Message: 'dup' }]))).not.toHaveProperty('unclear');
  });

  it('the switch changes one row of the sale table, and only that one', () => {
    expect(saleTable()).toBe(SALE);
    const on = saleTable({ undoUnclearDeclines: true });
    expect(on['unclear-decline'].decision).toBe('undo');
    expect(SALE['unclear-decline'].decision).toBe('done');
    for (const k of Object.keys(SALE) as (keyof typeof SALE)[])
      if (k !== 'unclear-decline') expect(on[k]).toBe(SALE[k]);
  });
});

describe('the void answer, read by the one CancellationStatus table', () => {
  it('every CancellationStatus of pt:8111 gives a kind the void table has a row for', () => {
    for (const cs of [0, 1, 2, 3, 4, 7])
      expect(Object.keys(VOID)).toContain(voidOutcome(answer(201, { VoidId: 'v', CancellationStatus: cs })).kind);
    expect(voidOutcome(answer(201, { VoidId: 'v', CancellationStatus: 1 })).kind).toBe('approved');
    expect(voidOutcome(answer(201, { VoidId: 'v', CancellationStatus: 2 })).kind).toBe('declined');
    expect(voidOutcome(answer(201, { VoidId: 'v', CancellationStatus: 3 })).kind).toBe('unknown');
  });
});
