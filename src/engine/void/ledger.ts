import type { Db } from '../../store/index.js';
import { VOID_HOLDS_AMOUNT, type VoidStateName } from './types.js';

/** What a sale has left to void. */
export interface Remaining {
  saleId: number;
  amount: number;
  /** Given back, or held by a void not yet settled, cents. */
  voided: number;
  remaining: number;
}

/** The journal ids of sale `saleId`'s voids (and refunds), oldest first. */
export function voidIdsOf(db: Db, saleId: number): number[] {
  return (
    db
      .prepare(`SELECT id FROM journal WHERE kind = 'void' AND json_extract(data, '$.sale.id') = ? ORDER BY id`)
      .all(saleId) as { id: number }[]
  ).map((r) => r.id);
}

/** States of a void whose money went back (the host approved it; the confirmation is journaled or done). */
const GAVE_BACK = ['confirming', 'confirmed'];

/** What the voids of sale `saleId` gave back (approved by the host or applied by the wallet), cents. */
export function givenBackOf(db: Db, saleId: number): number {
  const row = db
    .prepare(
      `SELECT COALESCE(SUM(amount), 0) AS s FROM journal WHERE kind = 'void' AND state IN (${GAVE_BACK.map(() => '?').join(', ')}) AND json_extract(data, '$.sale.id') = ?`,
    )
    .get(...GAVE_BACK, saleId) as { s: number };
  return row.s;
}

/**
 * What sale `saleId` (of `amount` cents) has left: its amount minus every void that gave, or may
 * still give, money back (VOID_HOLDS_AMOUNT: a void in flight holds its amount until it settles).
 */
export function remainingOf(db: Db, saleId: number, amount: number): Remaining {
  const rows = db
    .prepare(`SELECT state, amount FROM journal WHERE kind = 'void' AND json_extract(data, '$.sale.id') = ?`)
    .all(saleId) as { state: VoidStateName; amount: number }[];
  const voided = rows.filter((r) => VOID_HOLDS_AMOUNT.has(r.state)).reduce((s, r) => s + r.amount, 0);
  return { saleId, amount, voided, remaining: amount - voided };
}
