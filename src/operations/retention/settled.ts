import type { JournalKind } from '../../core/index.js';
import { CNP_FINAL, FINAL_STATES, FINAL_VOID_STATES, PIX_FINAL, QR_FINAL } from '../../engine/index.js';
import type { Db } from '../../store/index.js';
import { voidSaleRef } from '../day/lines.js';

/**
 * Whether a journal row can still move money (docs/operations.md, "Retention"). A row is settled
 * when its machine reached a final state that needs nobody any more: not `needs-refund` (the money
 * must still go back) nor `dead-letter` (the host holds a step we could not deliver), and no outbox
 * task of it is still waiting (a confirmation, an undo, a QR code still watched for a late payment, a
 * Pix refund), dead-lettered ones included. Anything the engines do not name as final is unsettled:
 * a state this rule does not know keeps its row.
 */
const FINAL: Readonly<Record<JournalKind, ReadonlySet<string>>> = {
  sale: FINAL_STATES,
  qr: QR_FINAL,
  pix: PIX_FINAL,
  cnp: CNP_FINAL,
  void: FINAL_VOID_STATES,
};

/** Final, yet someone must still act: the money is not where it belongs. */
const STILL_OWED: ReadonlySet<string> = new Set(['needs-refund', 'dead-letter']);

interface RowRef {
  id: number;
  kind: JournalKind;
  state: string;
  data: string;
}

/**
 * The journal ids that may still move money: rows not settled by their state, rows with an outbox
 * task not done, and the sales an unsettled void names (a void running holds its sale's row).
 * Read once per retention pass; the unsettled rows are few on a healthy terminal.
 */
export function heldJournalIds(db: Db): Set<number> {
  const held = new Set<number>();
  // Per kind, the rows not settled by their state; and every row with a task still waiting.
  const kinds = Object.entries(FINAL).map(([kind, states]) => {
    const settled = [...states].filter((st) => !STILL_OWED.has(st));
    return { sql: `(kind = ? AND state NOT IN (${settled.map(() => '?').join(',')}))`, args: [kind, ...settled] };
  });
  const candidates = db
    .prepare(
      `SELECT id, kind, state, data FROM journal WHERE ${kinds.map((k) => k.sql).join(' OR ')}
         OR id IN (SELECT journal_id FROM outbox WHERE done_at IS NULL AND journal_id IS NOT NULL)`,
    )
    .all(...kinds.flatMap((k) => k.args)) as RowRef[];
  for (const r of candidates) {
    held.add(r.id);
    if (r.kind === 'void') {
      const ref = voidSaleRef(JSON.parse(r.data) as Record<string, unknown>);
      if (ref.id !== undefined) held.add(ref.id);
      if (ref.merchantOrderId) {
        const sale = db.prepare('SELECT id FROM journal WHERE merchant_order_id = ?').get(ref.merchantOrderId) as
          { id: number } | undefined;
        if (sale) held.add(sale.id);
      }
    }
  }
  return held;
}
