import { describe, expect, it } from 'vitest';
import data from '../../../tables/sandbox-keys.json' with { type: 'json' };
import { SANDBOX_KEYS, sandboxKeysSchema } from '../../../tables/sandbox-keys.js';

describe('SANDBOX_KEYS', () => {
  it('the JSON passes its schema, and the table is what the schema reads from it (keys in order, no $comment)', () => {
    const parsed = sandboxKeysSchema().parse(data);
    expect(SANDBOX_KEYS).toStrictEqual(parsed);
    expect(JSON.stringify(SANDBOX_KEYS)).toBe(JSON.stringify(parsed));
    expect(Object.isFrozen(SANDBOX_KEYS)).toBe(true);
  });
});
