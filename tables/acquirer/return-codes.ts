import { z } from 'zod';
import data from './return-codes.json' with { type: 'json' };

/**
 * What the client may read from a published code: `not-found` (a query's "no such sale"),
 * `duplicate-order-id` (a sale refused for its MerchantOrderId), or nothing (`informational`).
 */
export type ReturnCodeMeaning = 'informational' | 'not-found' | 'duplicate-order-id';

/** The names of the rows, as code names them (a test holds them equal to the JSON's, in order). */
export const RETURN_CODE_NAMES = [
  'APPROVED',
  'SUCCESS',
  'NOT_AUTHORIZED',
  'EXPIRED_CARD',
  'BLOCKED_CARD',
  'ISSUER_TIMEOUT',
  'CANCELED_CARD',
  'CARD_PROBLEM',
  'INVALID_REQUEST',
  'DUPLICATE_ORDER_ID',
  'ORDER_NOT_FOUND',
  'TRANSACTION_NOT_FOUND',
  'NOT_AVAILABLE_TO_CAPTURE',
  'NOT_AVAILABLE_TO_VOID',
  'OPERATION_NOT_SUPPORTED',
  'REFUND_NOT_ENABLED',
  'NOT_AVAILABLE_TO_REFUND',
  'NO_TRANSACTION_FOUND',
] as const;
export type ReturnCodeName = (typeof RETURN_CODE_NAMES)[number];

/**
 * The rows' schema, checked against the data by a unit test, not at every start (fast start: building and running
 * zod schemas over the tables cost ~13 ms of CPU in the daemon's start on Node 22):
 * test/unit/tables/acquirer/return-codes.test.ts.
 */
export const returnCodeRows = () =>
  z.array(
    z.strictObject({
      code: z.string().regex(/^\d{1,3}$/),
      name: z.enum(RETURN_CODE_NAMES),
      meaning: z.enum(['informational', 'not-found', 'duplicate-order-id']),
      message: z.string().min(1),
      /** Where the acquirer publishes it: page and line (or the seed file and line). */
      source: z.string().min(10),
    }),
  );

export type ReturnCodeRow = z.infer<ReturnType<typeof returnCodeRows>>[number];

/** Every code the acquirer publishes that the client names (see the file's $comment), as returnCodeRows() reads them. */
export const RETURN_CODES: readonly ReturnCodeRow[] = Object.freeze(data.codes as ReturnCodeRow[]);

const byCode = new Map(RETURN_CODES.map((r) => [r.code, r]));

/**
 * The published row of a code exactly as the host sent it. A number is read as its decimal
 * digits (the host sends `0` and `"0"` alike); nothing is folded: `"0310"`, `" 310"` and `5`
 * (for `"05"`) match no row.
 */
export function publishedCode(code: string | number | undefined): ReturnCodeRow | undefined {
  if (code === undefined) return undefined;
  if (typeof code === 'number') return Number.isInteger(code) && code >= 0 ? byCode.get(String(code)) : undefined;
  return byCode.get(code);
}

/** The meaning of a code as the host sent it (undefined for a code the acquirer does not publish). */
export function codeMeaning(code: string | number | undefined): ReturnCodeMeaning | undefined {
  return publishedCode(code)?.meaning;
}

/** True when the host sent one of the named codes (exactly, as publishedCode reads it). */
export function isReturnCode(code: string | number | undefined, ...names: readonly ReturnCodeName[]): boolean {
  const row = publishedCode(code);
  return row !== undefined && names.includes(row.name);
}
