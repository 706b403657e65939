import { describe, expect, it } from 'vitest';
import { paymentView } from '../../../src/api/payment-view.js';
import type { JournalEntry } from '../../../src/store/index.js';
import { checkAnswer, tally, warmContract } from '../../helpers/contract.js';

/**
 * A card-not-present payment as `GET /v1/payments/{id}` shows it fits the OpenAPI document's
 * `Payment` (which requires `confirmation`): on 8230ee6 its view lacked the field, so every cnp
 * payment the API answered broke the document.
 */
const cnp = (state: string, data: Record<string, unknown> = {}): JournalEntry => ({
  id: 3,
  kind: 'cnp',
  merchantOrderId: '263330001306267',
  state,
  amount: 8800,
  data: {
    request: { amount: 8800, installments: 1, capture: false, method: 'credit' },
    merchantOrderId: '263330001306267',
    backend: 'ecommerce',
    sentAt: '2026-11-29T11:30:26.707Z',
    paymentId: 'aff6eb0a-53ef-4095-a486-e9d3d520d1c0',
    maskedNumber: '400000******0001',
    ...data,
  },
  createdAt: '2026-11-29T11:30:26.707Z',
  updatedAt: '2026-11-29T11:30:26.954Z',
});

describe('paymentView of a card-not-present sale', () => {
  it('fits the document in every state, with its captured and voided amounts', async () => {
    await warmContract();
    const before = tally.failures.length;
    for (const [state, data] of [
      ['authorized', {}],
      ['captured', { capturedAmount: 6000, voidedAmount: 1000 }],
      ['voided', { capturedAmount: 6000, voidedAmount: 6000 }],
    ] as const) {
      const view = paymentView(cnp(state, data));
      await checkAnswer('GET', '/v1/payments/3', 200, JSON.stringify(view));
    }
    expect(tally.failures.slice(before)).toEqual([]);
    tally.failures.splice(before);
  });
});
