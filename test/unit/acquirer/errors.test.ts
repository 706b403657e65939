import { describe, expect, it } from 'vitest';
import { acquirerContext, httpError } from '../../../src/acquirer/index.js';
import { OmniposError } from '../../../src/core/index.js';

describe("acquirerContext: an error is the acquirer's when its context is", () => {
  it('reads the context httpError writes', () => {
    const e = httpError('saleConfirm', 503, { ReturnCode: '99', ReturnMessage: 'down' });
    expect(acquirerContext(e)).toEqual({
      route: 'saleConfirm',
      status: 503,
      returnCode: '99',
      returnMessage: 'down',
      outcomeUnknown: true,
    });
  });

  it('a context that only looks like one is not: an unknown route, a status that is not a number, another transport', () => {
    // Before: any string `route` with a boolean `outcomeUnknown` was taken for an acquirer context as it stood.
    const ctx = { route: 'saleConfirm', outcomeUnknown: false };
    expect(acquirerContext(new OmniposError('ACQUIRER_HTTP', 'x', ctx))).toEqual(ctx);
    expect(acquirerContext(new OmniposError('ACQUIRER_HTTP', 'x', { ...ctx, route: 'toString' }))).toBeUndefined();
    expect(acquirerContext(new OmniposError('ACQUIRER_HTTP', 'x', { ...ctx, route: 'nowhere' }))).toBeUndefined();
    expect(acquirerContext(new OmniposError('ACQUIRER_HTTP', 'x', { ...ctx, status: '503' }))).toBeUndefined();
    expect(acquirerContext(new OmniposError('ACQUIRER_HTTP', 'x', { ...ctx, transport: 'pigeon' }))).toBeUndefined();
    expect(acquirerContext(new Error('x'))).toBeUndefined();
  });
});
