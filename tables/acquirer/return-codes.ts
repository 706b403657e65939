import { z } from 'zod';
import data from './return-codes.json' with { type: 'json' };

/**
 * What the client may read from a published code: `not-found` (a query's "no such sale"),
 * `duplicate-order-id` (a sale refused for its MerchantOrderId), or nothing (`informational`).
 */
export type ReturnCodeMeaning = 'informational' | 'not-found' | 'duplicate-order-id';

const ReturnCodeRow = z.strictObject({
  code: z.string().regex(/^\d{1,3}$/),
  name: z.string().regex(/^[A-Z_]+$/),
  meaning: z.enum(['informational', 'not-found', 'duplicate-order-id']),
  message: z.string().min(1),
  /** Where the acquirer publishes it: page and line (or the seed file and line). */
  source: z.string().min(10),
});

export type ReturnCodeRow = z.infer<typeof ReturnCodeRow>;

/** Every code the acquirer publishes that the client names (see the file's $comment), validated at load. */
export const RETURN_CODES: readonly ReturnCodeRow[] = Object.freeze(z.array(ReturnCodeRow).parse(data.codes));

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
