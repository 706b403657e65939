import { describe, expect, it } from 'vitest';
import data from '../../../tables/sandbox-merchant.json' with { type: 'json' };
import { SANDBOX_MERCHANT, sandboxMerchantSchema } from '../../../tables/sandbox-merchant.js';

describe('SANDBOX_MERCHANT', () => {
  it('the JSON passes its schema, and the table is what the schema reads from it (keys in order, no $comment)', () => {
    const parsed = sandboxMerchantSchema().parse(data);
    expect(SANDBOX_MERCHANT).toStrictEqual(parsed);
    expect(JSON.stringify(SANDBOX_MERCHANT)).toBe(JSON.stringify(parsed));
    expect(Object.isFrozen(SANDBOX_MERCHANT)).toBe(true);
  });
});
