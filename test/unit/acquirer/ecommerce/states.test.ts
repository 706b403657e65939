import { describe, expect, it } from 'vitest';
import { ECOMMERCE_STATUSES, ecommerceStatus } from '../../../../src/acquirer/ecommerce/states.js';
import { NOTHING_CHARGED } from '../../../../src/engine/index.js';

/**
 * The page's "Status transacional" table (`_i18n/pt/_posts/api-ecommerce-cielo/2003-03-03-cielo-ecommerce.md`,
 * lines 7371-7379), transcribed as printed: code and name.
 */
const PAGE: [number, string, number][] = [
  [0, 'NotFinished', 7371],
  [1, 'Authorized', 7372],
  [2, 'PaymentConfirmed', 7373],
  [3, 'Denied', 7374],
  [10, 'Voided', 7375],
  [11, 'Refunded', 7376],
  [12, 'Pending', 7377],
  [13, 'Aborted', 7378],
  [20, 'Scheduled', 7379],
];

describe('the e-commerce statuses → the engine words', () => {
  it("has exactly the page's rows, each citing its line", () => {
    expect(ECOMMERCE_STATUSES.map((r) => [r.status, r.name])).toEqual(PAGE.map(([s, n]) => [s, n]));
    for (const [s, , line] of PAGE) expect(ecommerceStatus(s)?.source).toMatch(new RegExp(`^ecom:${line} `));
  });

  it('charges nothing exactly for Denied, Voided, Refunded, Aborted', () => {
    const nothing = ECOMMERCE_STATUSES.filter((r) => NOTHING_CHARGED.has(r.state)).map((r) => r.status);
    expect(nothing).toEqual([3, 10, 11, 13]);
  });

  it('only PaymentConfirmed is captured; a status not on the page has no row', () => {
    expect(ECOMMERCE_STATUSES.filter((r) => r.captured).map((r) => r.status)).toEqual([2]);
    expect(ecommerceStatus(99)).toBeUndefined();
    expect(ecommerceStatus('2')).toBeUndefined();
  });
});
