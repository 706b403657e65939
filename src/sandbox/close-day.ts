import { businessDay } from './clock.js';
import { ledgerEntry, problem, type SandboxContext } from './context.js';

/**
 * The daily close (docs/decisions.md, "The daily close", a homologation question): at 00:00
 * America/Sao_Paulo the host confirms every sale still pending (and every void still
 * pending), each flagged in the ledger's problems. Undos that arrive afterwards are refused.
 */
export function runClose(ctx: SandboxContext, label: string): { salesConfirmed: number; voidsConfirmed: number } {
  let salesConfirmed = 0;
  let voidsConfirmed = 0;
  ctx.db.transaction(() => {
    const sales = ctx.db
      .prepare(`SELECT payment_id, merchant_order_id, amount FROM sales WHERE status = 2 AND confirmation_status = 0`)
      .all() as {
      payment_id: string;
      merchant_order_id: string;
      amount: number;
    }[];
    for (const s of sales) {
      ctx.db
        .prepare(`UPDATE sales SET confirmation_status = 1, closed_by_host = 1 WHERE payment_id = ?`)
        .run(s.payment_id);
      ledgerEntry(ctx, {
        kind: 'confirm-at-close',
        paymentId: s.payment_id,
        merchantOrderId: s.merchant_order_id,
        note: label,
      });
      problem(ctx, {
        kind: 'pending-at-close',
        merchantOrderId: s.merchant_order_id,
        paymentId: s.payment_id,
        detail: `sale ${s.merchant_order_id} (${s.amount} cents) was still pending at the ${label}; the host confirmed it`,
      });
      salesConfirmed++;
    }
    const voids = ctx.db
      .prepare(
        `SELECT v.void_id, v.payment_id, s.merchant_order_id FROM voids v JOIN sales s ON s.payment_id = v.payment_id WHERE v.cancellation_status = 1`,
      )
      .all() as { void_id: string; payment_id: string; merchant_order_id: string }[];
    for (const v of voids) {
      ctx.db.prepare(`UPDATE voids SET cancellation_status = 3 WHERE void_id = ?`).run(v.void_id);
      ledgerEntry(ctx, {
        kind: 'void-confirm-at-close',
        paymentId: v.payment_id,
        merchantOrderId: v.merchant_order_id,
        voidId: v.void_id,
        note: label,
      });
      problem(ctx, {
        kind: 'void-pending-at-close',
        merchantOrderId: v.merchant_order_id,
        paymentId: v.payment_id,
        detail: `void ${v.void_id} was still pending at the ${label}; the host confirmed it`,
      });
      voidsConfirmed++;
    }
  })();
  return { salesConfirmed, voidsConfirmed };
}

/** Runs the close when the host's clock has crossed 00:00 (host time) since the last check. */
export function maybeCloseDay(ctx: SandboxContext): void {
  const today = businessDay(ctx.clock.now());
  const row = ctx.db.prepare(`SELECT value FROM meta WHERE key = 'business_day'`).get() as
    { value: string } | undefined;
  if (row && row.value < today) runClose(ctx, `daily close of ${row.value}`);
  if (!row || row.value < today) {
    ctx.db
      .prepare(
        `INSERT INTO meta (key, value) VALUES ('business_day', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      )
      .run(today);
  }
}
