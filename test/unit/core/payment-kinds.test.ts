import { describe, expect, it } from 'vitest';
import { PaymentRequest } from '../../../src/api/payments.js';
import {
  CARD_METHODS,
  isPaymentKind,
  KIND_OF_METHOD,
  PAYMENT_KIND,
  PAYMENT_KINDS,
  PAYMENT_METHODS,
} from '../../../src/core/payment-kinds.js';

/**
 * The payment-kind registry (src/core/payment-kinds.ts): the API, the views, the events, the day
 * report and the receipts key their per-kind code by it (`Record<PaymentKind, …>`), so a kind or
 * a method added there is a compile error wherever it must be handled. Measured with
 * `npx tsc --noEmit` after adding a kind 'boleto' to PAYMENT_KINDS: 5 files flagged (the registry,
 * src/api/payments.ts, src/api/payment-view.ts, src/operations/day/lines.ts, src/main.ts); before
 * the registry, 2 (the rest fell silently into the card path).
 */
describe('the payment-kind registry', () => {
  it('each method belongs to exactly one kind, and each kind lists its methods', () => {
    for (const m of PAYMENT_METHODS) expect(PAYMENT_KIND[KIND_OF_METHOD[m]].methods).toContain(m);
    for (const k of PAYMENT_KINDS) for (const m of PAYMENT_KIND[k].methods) expect(KIND_OF_METHOD[m]).toBe(k);
    expect(PAYMENT_KINDS.flatMap((k) => PAYMENT_KIND[k].methods).sort()).toEqual([...PAYMENT_METHODS].sort());
    expect(PAYMENT_KIND.sale.methods).toEqual(CARD_METHODS);
  });

  it("the API's POST /v1/payments takes exactly the registry's methods", () => {
    expect(PaymentRequest.shape.method.options).toEqual([...PAYMENT_METHODS]);
  });

  it('a void is not a payment kind', () => {
    expect(PAYMENT_KINDS.filter(isPaymentKind)).toEqual(['sale', 'qr', 'pix', 'cnp']);
    expect(isPaymentKind('void')).toBe(false);
  });
});
