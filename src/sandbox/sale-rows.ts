import { createHash } from 'node:crypto';
import type { SandboxContext } from './context.js';
import { saleLinks } from './answers.js';
import { apiError, CODE } from './errors.js';
import { Refusal } from './refusal.js';
import { scenario } from './scenario.js';

/** A sale as the sandbox host keeps it (the `sales` table) and finds it again. */
export interface SaleRow {
  payment_id: string;
  merchant_order_id: string;
  terminal_id: string;
  amount: number;
  status: number;
  confirmation_status: number;
  input_mode: string;
  business_day: string;
  created_at: number;
  closed_by_host: number;
  card_match: string | null;
  answer: string;
}

export const cardMatch = (pan: string): string => createHash('sha256').update(`omnipos-sandbox:${pan}`).digest('hex');
export function isChip(inputMode: string): boolean {
  return inputMode === 'Emv' || inputMode === 'ContactlessEmv';
}

export function findSale(ctx: SandboxContext, paymentId: string): SaleRow | undefined {
  return ctx.db.prepare(`SELECT * FROM sales WHERE payment_id = ?`).get(paymentId) as SaleRow | undefined;
}

export function findSaleByOrderId(ctx: SandboxContext, merchantOrderId: string): SaleRow | undefined {
  return ctx.db.prepare(`SELECT * FROM sales WHERE merchant_order_id = ?`).get(merchantOrderId) as SaleRow | undefined;
}

/** What approved voids (created or confirmed, CancellationStatus 1 or 3) took back from the sale. */
export function voidedAmount(ctx: SandboxContext, paymentId: string): number {
  return (
    ctx.db
      .prepare(`SELECT COALESCE(SUM(amount), 0) AS s FROM voids WHERE payment_id = ? AND cancellation_status IN (1, 3)`)
      .get(paymentId) as { s: number }
  ).s;
}

/**
 * The sale's `Status` as a query shows it: a paid sale voided whole reads 10 "Cancelado" (the void's
 * own answer prints `Status: 10` beside the voided payment, CONECTA_PT 8077-8079; the status table,
 * CONECTA_PT 7386); a partial void leaves it 2.
 */
function queriedStatus(ctx: SandboxContext, row: SaleRow): number {
  return row.status === 2 && voidedAmount(ctx, row.payment_id) >= row.amount ? 10 : row.status;
}

/** The stored answer with the sale's current state. */
export function currentAnswer(ctx: SandboxContext, row: SaleRow): Record<string, unknown> {
  const answer = JSON.parse(row.answer) as { Payment: Record<string, unknown> };
  answer.Payment.Status = queriedStatus(ctx, row);
  answer.Payment.ConfirmationStatus = row.confirmation_status;
  answer.Payment.Links = saleLinks(ctx, row.payment_id, row.status === 2 && row.confirmation_status === 0);
  return answer;
}
export function saleOr404(ctx: SandboxContext, row: SaleRow | undefined): SaleRow {
  if (!row) throw apiError(404, scenario(ctx).notFound === '318' ? CODE.noTransactionFound : CODE.notFound);
  return row;
}

/**
 * "Not found" in the scenario's shape (scenario.ts `notFound`): the manual's 404 `[{Code: 307}]`
 * by default. An undo gets only the 404 shapes (an empty list becomes a 404 with `[]`).
 */
export function notFound(ctx: SandboxContext, op: 'query' | 'undo'): Refusal {
  const shape = scenario(ctx).notFound;
  if (shape === '318') return apiError(404, CODE.noTransactionFound);
  if (shape === 'manual') return apiError(404, CODE.notFound);
  if (op === 'undo') return new Refusal(404, []);
  return new Refusal(200, shape === 'empty-list' ? [] : { Payments: [] });
}
