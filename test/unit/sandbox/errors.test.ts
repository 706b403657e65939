import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE } from '../../../src/sandbox/errors.js';
import { API_ERRORS } from '../../../tables/sandbox/published-errors.js';
import { isReturnCode, publishedCode, RETURN_CODE_NAMES, RETURN_CODES } from '../../../tables/acquirer/return-codes.js';

/**
 * The return-code names used in code are the table's (tables/acquirer/return-codes.json): the
 * client names codes by RETURN_CODE_NAMES (typed, so a name not in the list does not compile),
 * the list is the JSON's, and the sandbox's names for the same numbers (src/sandbox/errors.ts
 * CODE) say the same thing and carry the meaning the client decides on.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const json = JSON.parse(readFileSync(path.join(ROOT, 'tables/acquirer/return-codes.json'), 'utf8')) as {
  codes: { code: string; name: string }[];
};
const snake = (camel: string): string => camel.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

describe('return-code names ↔ tables/acquirer/return-codes.json', () => {
  it('RETURN_CODE_NAMES is the JSON’s names, in order, each once', () => {
    expect([...RETURN_CODE_NAMES]).toEqual(json.codes.map((c) => c.name));
    expect(RETURN_CODES.map((r) => r.name)).toEqual([...RETURN_CODE_NAMES]);
  });

  it('isReturnCode reads ReturnCode 0 as the manual writes it (0, "0", "000") and nothing folded', () => {
    for (const zero of [0, '0', '000']) expect(isReturnCode(zero, 'SUCCESS', 'APPROVED')).toBe(true);
    for (const other of ['00', '0000', ' 0', 5, '05', undefined])
      expect(isReturnCode(other, 'SUCCESS', 'APPROVED')).toBe(false);
  });

  it("the sandbox's name of each code in the acquirer's table is that row's name (or its ending), for a code the e-commerce page publishes", () => {
    const published = new Set(API_ERRORS.map((r) => r.code));
    const shared = Object.entries(CODE).filter(([, n]) => n !== 0 && publishedCode(String(n)) !== undefined);
    expect(shared.length).toBeGreaterThanOrEqual(7);
    for (const [key, n] of shared) {
      const row = publishedCode(String(n))!;
      expect(row.name.endsWith(snake(key)), `CODE.${key} = ${n} is ${row.name} in the table`).toBe(true);
      expect(published.has(n)).toBe(true);
    }
  });

  it('the sandbox answers a not-found and a duplicate with codes whose meaning the client decides on', () => {
    for (const n of [CODE.notFound, CODE.noTransactionFound, CODE.orderNotFound])
      expect(publishedCode(n)?.meaning).toBe('not-found');
    expect(publishedCode(CODE.duplicateOrderId)?.meaning).toBe('duplicate-order-id');
    expect(publishedCode(CODE.notAvailableToVoid)?.name).toBe('NOT_AVAILABLE_TO_VOID');
  });
});
