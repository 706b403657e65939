import { ledgerEntry, type SandboxContext } from './context.js';

/** How long a Pix refund waits for the provider's approval before it shows as given back. */
export const PIX_REFUND_DELAY_MS = 60_000;

/** The columns of an e-commerce sale a Pix refund reads and moves (ecommerce.ts `EcommerceRow`). */
export interface PixRefundRow {
  payment_id: string;
  merchant_order_id: string;
  amount: number;
  status: number;
  /** What was asked back so far (every devolução, approved or not yet). */
  refunded_amount: number;
  /** When the provider approves what was asked and not approved yet; null when nothing waits. */
  refund_due_at: number | null;
  answer: string;
}

/** What the provider approved so far: the query's `Payment.VoidedAmount` (ecom:5657 "Valor cancelado/estornado"). */
export function approvedOf(row: PixRefundRow): number {
  const paid = (JSON.parse(row.answer) as { Payment?: { VoidedAmount?: unknown } }).Payment?.VoidedAmount;
  return typeof paid === 'number' ? paid : 0;
}

/**
 * A devolução the provider approves once its delay has passed on the host clock (ecom:1927: "não é uma
 * operação instantânea"). While it waits the charge shows 2 (ecom:1788, step 6 "2 - Pago"). Approved:
 * the query's `VoidedAmount` is the sum given back, and the charge shows 11 only once the whole amount
 * is (ecom:1789-1790 "11 - Estornado"). A part leaves it 2 with its `VoidedAmount`: the Pix page names
 * a partial devolução (ecom:1929 "a devolução total ou parcial") but not its status; the sandbox
 * follows the page's partial cancel (ecom:6283 "pode ocorrer inúmeras vezes, até que o valor total da
 * transação seja cancelado", its answer `Status` 2 at ecom:6313) and the Pix API page (apipix:220 "um
 * Pix pode ter várias devoluções associadas a ele, desde que o montante das devoluções não ultrapasse o
 * valor do Pix original") *(homologation: a partial devolução's status)*.
 */
export function settlePixRefund<R extends PixRefundRow>(ctx: SandboxContext, row: R): R {
  const now = ctx.clock.now();
  if (row.refund_due_at === null || row.refund_due_at > now.getTime()) return row;
  const part = row.refunded_amount - approvedOf(row);
  const status = row.refunded_amount >= row.amount ? 11 : row.status;
  const answer = JSON.parse(row.answer) as { Payment: Record<string, unknown> };
  Object.assign(answer.Payment, { VoidedAmount: row.refunded_amount, VoidedDate: now.toISOString() });
  const json = JSON.stringify(answer);
  ctx.db
    .prepare(`UPDATE ecommerce_sales SET status = ?, refund_due_at = NULL, answer = ? WHERE payment_id = ?`)
    .run(status, json, row.payment_id);
  ledgerEntry(ctx, {
    kind: status === 11 ? 'pix-refunded' : 'pix-partly-refunded',
    paymentId: row.payment_id,
    merchantOrderId: row.merchant_order_id,
    amount: -part,
  });
  return { ...row, status, refund_due_at: null, answer: json };
}

/**
 * A devolução of `amount` asked of a paid Pix (`PUT /1/sales/{PaymentId}/void[?Amount=]`, ecom:1952):
 * answered `Status` 12, `ReasonCode` 0, "Reembolso solicitado com sucesso" (ecom:1975-1979), whole or
 * part; approved after the provider's delay (`settlePixRefund`).
 */
export function askPixRefund(
  ctx: SandboxContext,
  row: PixRefundRow,
  amount: number,
): { status: number; code: number; message: string } {
  ctx.db
    .prepare(`UPDATE ecommerce_sales SET refunded_amount = refunded_amount + ?, refund_due_at = ? WHERE payment_id = ?`)
    .run(amount, ctx.clock.now().getTime() + PIX_REFUND_DELAY_MS, row.payment_id);
  ledgerEntry(ctx, {
    kind: 'pix-refund-requested',
    paymentId: row.payment_id,
    merchantOrderId: row.merchant_order_id,
    amount: 0,
  });
  return { status: 12, code: 0, message: 'Reembolso solicitado com sucesso' };
}
