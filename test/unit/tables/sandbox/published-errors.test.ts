import { describe, expect, it } from 'vitest';
import data from '../../../../tables/sandbox/published-errors.json' with { type: 'json' };
import {
  API_ERRORS,
  WALLET_ERRORS,
  apiErrorRows,
  walletErrorRows,
} from '../../../../tables/sandbox/published-errors.js';

describe('the published error tables', () => {
  it('the JSON passes the schemas, and the tables are what they read from it (keys in order)', () => {
    const api = apiErrorRows().parse(data.api.codes);
    const wallet = walletErrorRows().parse(data.wallet.codes);
    expect(API_ERRORS).toStrictEqual(api);
    expect(WALLET_ERRORS).toStrictEqual(wallet);
    expect(JSON.stringify([API_ERRORS, WALLET_ERRORS])).toBe(JSON.stringify([api, wallet]));
  });
});
