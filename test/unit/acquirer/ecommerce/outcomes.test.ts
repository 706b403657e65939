import { describe, expect, it } from 'vitest';
import {
  cardQueryOutcome,
  cardSaleOutcome,
  changeOutcome,
  orderIdsOutcome,
} from '../../../../src/acquirer/ecommerce/outcomes.js';
import type { Exchange } from '../../../../src/acquirer/omni/outcomes.js';
import { RULEBOOK, decide, type SaleCreateAnswer } from '../../../../src/engine/index.js';
import type { CnpSaleAnswer } from '../../../../src/engine/index.js';

/** The e-commerce card API's answers → the rulebook's words, row by row (ECOMMERCE = the e-commerce page). */

const ok = (body: unknown, status = 201): Exchange => ({ kind: 'answer', status, body });
const sale = (Status: unknown, extra: Record<string, unknown> = {}): Exchange =>
  ok({ MerchantOrderId: '1', Payment: { PaymentId: 'p-1', Status, ...extra } });
const refusal = (status: number, code: number): Exchange => ({ kind: 'answer', status, body: { ReturnCode: code } });

describe('cardSaleOutcome: POST /1/sales (CreditCard)', () => {
  it.each<[string, Exchange, boolean, CnpSaleAnswer]>([
    ['2 with capture asked (ECOMMERCE:844)', sale(2), true, 'approved'],
    ['1 without capture: a pre-authorization (ECOMMERCE:2840)', sale(1), false, 'approved'],
    ['1 although capture was asked', sale(1), true, 'anomaly'],
    ['2 although capture was not asked', sale(2), false, 'anomaly'],
    ['3 Denied (ECOMMERCE:7374)', sale(3), true, 'declined'],
    ['13 Aborted (ECOMMERCE:7378)', sale(13), true, 'declined'],
    ['0 NotFinished (ECOMMERCE:7371)', sale(0), true, 'unknown'],
    ['12 Pending', sale(12), true, 'unknown'],
    ['a status the page does not list', sale(99), true, 'unknown'],
    ['no PaymentId', ok({ Payment: { Status: 2 } }), true, 'unknown'],
    ['a 4xx (ECOMMERCE:7288, the API errors)', refusal(400, 126), true, 'refused'],
    ['a 401', refusal(401, 132), true, 'refused'],
    ['a 408', { kind: 'answer', status: 408, body: undefined }, true, 'unknown'],
    ['a 500', { kind: 'answer', status: 500, body: undefined }, true, 'unknown'],
    ['a timeout', { kind: 'transport', failure: 'timeout' }, true, 'unknown'],
    ['a lost connection', { kind: 'transport', failure: 'lost' }, true, 'unknown'],
    ['never sent', { kind: 'transport', failure: 'not-sent' }, true, 'not-sent'],
  ])('%s', (_why, ex, capture, answer) => {
    expect(cardSaleOutcome(ex, capture).answer).toBe(answer);
  });

  it('keeps the PaymentId, the masked number and the authorization code, never more of the card', () => {
    const o = cardSaleOutcome(
      sale(2, { AuthorizationCode: '123456', CreditCard: { CardNumber: '455187******0183', Holder: 'X' } }),
      true,
    );
    expect(o).toMatchObject({ paymentId: 'p-1', maskedNumber: '455187******0183', authorizationCode: '123456' });
  });

  it('every answer has its row in the rulebook (RULEBOOK.sale): the backend speaks its vocabulary', () => {
    const answers: CnpSaleAnswer[] = ['approved', 'anomaly', 'declined', 'refused', 'not-sent', 'unknown'];
    for (const a of answers) expect(decide(RULEBOOK.sale, a satisfies SaleCreateAnswer).source).not.toBe('');
    // unknown → the void of what is unknown; anomaly → undone too
    expect(decide(RULEBOOK.sale, 'unknown').decision).toBe('undo');
    expect(decide(RULEBOOK.sale, 'anomaly').decision).toBe('undo');
  });
});

describe('changeOutcome: capture and void', () => {
  it.each([
    ['a capture answered 2 (ECOMMERCE:6118)', ok({ Status: 2, ReturnCode: '6' }, 200), ['approved'], 'done'],
    [
      'a whole void answered 10 (ECOMMERCE:6233)',
      ok({ Status: 10, ReturnCode: '9' }, 200),
      ['undone', 'cancelled'],
      'done',
    ],
    ['a void answered 11 (after the day)', ok({ Status: 11 }, 200), ['undone', 'cancelled'], 'done'],
    [
      'a partial void answered 2 (ECOMMERCE:6313)',
      ok({ Status: 2, ReasonCode: 0 }, 200),
      ['undone', 'cancelled', 'approved'],
      'done',
    ],
    ['a whole void answered 2', ok({ Status: 2 }, 200), ['undone', 'cancelled'], 'unknown'],
    ['a capture answered 1', ok({ Status: 1 }, 200), ['approved'], 'unknown'],
    ['308 not available to capture', refusal(400, 308), ['approved'], 'refused'],
    ['a 500', { kind: 'answer', status: 500, body: undefined }, ['approved'], 'unknown'],
    ['a timeout', { kind: 'transport', failure: 'timeout' }, ['approved'], 'unknown'],
    ['never sent', { kind: 'transport', failure: 'not-sent' }, ['approved'], 'refused'],
  ] as const)('%s', (_why, ex, expected, kind) => {
    expect(changeOutcome(ex, expected).kind).toBe(kind);
  });
});

describe('queries', () => {
  it('by PaymentId: the status in engine words; 307 is not-found; any other non-2xx unknown', () => {
    expect(cardQueryOutcome(ok({ Payment: { PaymentId: 'p', Status: 1 } }, 200))).toMatchObject({
      kind: 'found',
      state: 'pending',
      captured: false,
    });
    expect(cardQueryOutcome(refusal(404, 307))).toEqual({ kind: 'not-found' });
    expect(cardQueryOutcome({ kind: 'answer', status: 404, body: undefined }).kind).toBe('unknown');
    expect(cardQueryOutcome(ok({ Payment: { Status: 42 } }, 200)).kind).toBe('unknown');
  });

  it('by order id: the PaymentIds oldest first, by the page\'s "ReceveidDate" (ECOMMERCE:5891-5902); 303 is not-found', () => {
    const page = {
      Payment: [
        { PaymentId: '5fb4d606-bb63-4423-a683-c966e15399e8', ReceveidDate: '2015-04-06T10:13:39.42' },
        { PaymentId: '6c1d45c3-a95f-49c1-a626-1e9373feecc2', ReceveidDate: '2014-12-19T20:23:28.847' },
      ],
    };
    expect(orderIdsOutcome(ok(page, 200))).toEqual({
      kind: 'ids',
      ids: ['6c1d45c3-a95f-49c1-a626-1e9373feecc2', '5fb4d606-bb63-4423-a683-c966e15399e8'],
    });
    expect(orderIdsOutcome(refusal(404, 303))).toEqual({ kind: 'not-found' });
    expect(orderIdsOutcome({ kind: 'answer', status: 404, body: undefined }).kind).toBe('unknown');
    expect(orderIdsOutcome(ok({ Payment: [] }, 200))).toEqual({ kind: 'not-found' });
  });
});
