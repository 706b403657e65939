import { z } from 'zod';
import data from './return-codes.json' with { type: 'json' };

const ReturnCodeRow = z.strictObject({
  code: z.string().regex(/^\d{1,3}$/),
  name: z.string().regex(/^[A-Z_]+$/),
  source: z.enum(['documented', 'sandbox']),
  permanent: z.boolean(),
  message: z.string().min(1),
  note: z.string().optional(),
});

export type ReturnCodeRow = z.infer<typeof ReturnCodeRow>;

/** Every named acquirer return code (see the file's $comment), validated at load. */
export const RETURN_CODES: readonly ReturnCodeRow[] = Object.freeze(z.array(ReturnCodeRow).parse(data.codes));

export type ReturnCodeName =
  | 'APPROVED' | 'SUCCESS' | 'NOT_AUTHORIZED' | 'EXPIRED_CARD' | 'CARD_PROBLEM' | 'CANCELED_CARD' | 'BLOCKED_CARD'
  | 'ISSUER_TIMEOUT' | 'WRONG_PIN' | 'INVALID_REQUEST' | 'UNAUTHORIZED' | 'NOT_FOUND' | 'HOST_ERROR' | 'ALREADY_UNDONE'
  | 'ALREADY_CONFIRMED' | 'NOT_ALLOWED' | 'PAST_DAILY_CLOSE' | 'DUPLICATE_ORDER_ID' | 'DECLINED_SALE'
  | 'VOID_AMOUNT_EXCEEDED' | 'CARD_MISMATCH';

const byName = new Map(RETURN_CODES.map((r) => [r.name, r]));

/** The row of a named code; throws on a name the table lacks (a programming error). */
export function returnCode(name: ReturnCodeName): ReturnCodeRow {
  const row = byName.get(name);
  if (!row) throw new Error(`return-codes.json has no ${name}`);
  return row;
}

/**
 * The name of a code as the host sent it: numbers and strings alike, leading zeros kept
 * significant only where the table has them ("000" and "0" differ; 5 matches "05").
 */
export function returnCodeName(code: string | number | undefined): ReturnCodeName | undefined {
  if (code === undefined) return undefined;
  const s = String(code).trim();
  const exact = RETURN_CODES.find((r) => r.code === s);
  if (exact) return exact.name as ReturnCodeName;
  if (!/^\d+$/.test(s)) return undefined;
  const n = Number(s);
  const loose = RETURN_CODES.filter((r) => Number(r.code) === n);
  return loose.length === 1 ? (loose[0]?.name as ReturnCodeName) : undefined;
}
