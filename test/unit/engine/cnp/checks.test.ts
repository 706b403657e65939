import { describe, expect, it } from 'vitest';
import { checkChange } from '../../../../src/engine/cnp/checks.js';
import type { CnpHostRules } from '../../../../src/engine/cnp-ports.js';
import type { CnpState, CnpStateName } from '../../../../src/engine/cnp/types.js';

/** The host's rules checked before a capture or void leaves: what may be voided, and from where. */
const rules: CnpHostRules = {
  captureDeadlineDays: 15,
  partialCaptureOnce: true,
  partialVoidNeedsCapture: true,
  partialVoidLeavesCaptured: true,
  sources: { captureDeadline: 'c', partialCapture: 'p', partialVoid: 'v', partialVoidLeaves: 'l' },
};
const row = (name: CnpStateName): CnpState => ({
  name,
  data: {
    request: { amount: 10_000, installments: 1, capture: true, method: 'credit' },
    merchantOrderId: '1000000000008',
    backend: 'ecommerce',
    sentAt: '2026-11-29T12:00:00.000Z',
    paymentId: 'p-8',
    capturedAmount: 10_000,
    voidedAmount: 4000,
  },
});
const now = new Date('2026-11-29T13:00:00.000Z');

describe('checkChange: a void of what is still charged', () => {
  it('a sale in needs-refund (its void did not take) is voided as a captured one: whole, or a part of what remains', () => {
    expect(checkChange(row('needs-refund'), 'void', undefined, rules, now)).toEqual({
      op: 'void',
      from: 'needs-refund',
    });
    expect(checkChange(row('needs-refund'), 'void', 6000, rules, now)).toEqual({ op: 'void', from: 'needs-refund' });
    expect(checkChange(row('needs-refund'), 'void', 2500, rules, now)).toEqual({
      op: 'void',
      from: 'needs-refund',
      amount: 2500,
    });
    expect(() => checkChange(row('needs-refund'), 'void', 6001, rules, now)).toThrow(/from 1 to 6000/);
    expect(() => checkChange(row('needs-refund'), 'capture', undefined, rules, now)).toThrow(
      /only a pre-authorization/,
    );
  });

  it('nothing charged is not voided', () => {
    for (const name of ['voided', 'undone', 'declined', 'failed', 'dead-letter'] as const)
      expect(() => checkChange(row(name), 'void', undefined, rules, now)).toThrow(/only a pre-authorized or captured/);
  });
});
