import { HOST_TIME_ZONE, localTime } from '../core/index.js';
import { ledgerEntry, type SandboxContext } from './context.js';
import { apiError, CODE } from './errors.js';
import type { Answer, SandboxRequest } from './http-kit.js';
import { cardAnswer, cardLinks, findCardSale, type CardSaleRow } from './ecommerce-card.js';
import { requireMerchant } from './ecommerce-merchant.js';

/**
 * Capture, void and the query by order id of a credit card sale (ecommerce-card.ts), as the
 * manual describes them (ECOMMERCE = the e-commerce page; each rule cites its line).
 */

/** ECOMMERCE:6072 "A captura é um processo com prazo de execução padrão de 15 dias". */
export const CAPTURE_DEADLINE_MS = 15 * 24 * 3600_000;

/** An amount in the query string, in cents (the page spells it `amount` at 6203, `Amount` at 1955): absent, or whole cents. */
export function amountOf(req: SandboxRequest): number | undefined {
  let text: string | null = null;
  for (const [k, v] of req.query) if (k.toLowerCase() === 'amount') text = v;
  if (text === null) return undefined;
  // "Número 15" (6109, 6226).
  if (!/^\d{1,15}$/.test(text) || Number(text) === 0) throw apiError(400, CODE.amountInvalid, 'amount: whole cents');
  return Number(text);
}

function update(ctx: SandboxContext, row: CardSaleRow, changes: Partial<CardSaleRow>): CardSaleRow {
  const next = { ...row, ...changes };
  ctx.db
    .prepare(`UPDATE card_sales SET status = ?, captured_amount = ?, voided_amount = ? WHERE payment_id = ?`)
    .run(next.status, next.captured_amount, next.voided_amount, row.payment_id);
  return next;
}

function codes(row: CardSaleRow): Record<string, unknown> {
  const p = (JSON.parse(row.answer) as { Payment: Record<string, unknown> }).Payment;
  return { Tid: p.Tid, ProofOfSale: p.ProofOfSale, AuthorizationCode: p.AuthorizationCode };
}

/**
 * `PUT /1/sales/{PaymentId}/capture[?amount=]` (ECOMMERCE:6054-6140): only an authorized sale (1);
 * without `amount` the whole authorization (6085-6086), with it a smaller part, once ("pode ocorrer
 * apenas uma vez por transação", 6078; "Após a captura, não é possível realizar capturas
 * adicionais", 6080); within the deadline (6072). Answer: Status 2, ReturnCode "6" (6118-6140).
 */
export function captureCardSale(ctx: SandboxContext, row: CardSaleRow, req: SandboxRequest): Answer {
  const amount = amountOf(req);
  if (row.status !== 1) throw apiError(400, CODE.notAvailableToCapture, `the sale's status is ${row.status}`);
  if (ctx.clock.now().getTime() > row.authorized_at + CAPTURE_DEADLINE_MS)
    throw apiError(400, CODE.notAvailableToCapture, 'the capture deadline (15 days) has passed');
  if (amount !== undefined && amount > row.amount)
    throw apiError(400, CODE.amountInvalid, `amount: at most the authorized ${row.amount}`);
  const captured = amount ?? row.amount;
  const next = update(ctx, row, { status: 2, captured_amount: captured });
  ledgerEntry(ctx, {
    kind: 'card-captured',
    paymentId: row.payment_id,
    merchantOrderId: row.merchant_order_id,
    amount: captured,
  });
  return {
    status: 200,
    body: {
      Status: 2,
      ...codes(row),
      ReturnCode: '6',
      ReturnMessage: 'Operation Successful',
      Links: cardLinks(ctx, next),
    },
  };
}

/** Whether `at` falls after 23:59 of the day `authorizedAt` was authorized (host time): 11 rather than 10 (ECOMMERCE:7376). */
function pastAuthorizationDay(authorizedAt: number, at: number): boolean {
  const a = localTime(new Date(authorizedAt), HOST_TIME_ZONE);
  const b = localTime(new Date(at), HOST_TIME_ZONE);
  return a.year !== b.year || a.month !== b.month || a.day !== b.day;
}

/**
 * `PUT /1/sales/{PaymentId}/void[?amount=]` (ECOMMERCE:6179-6330): an authorized sale (1) is voided
 * whole only ("O cancelamento parcial está disponível apenas para transações capturadas", 6285); a
 * captured one (2) whole or in parts, "inúmeras vezes, até que o valor total da transação seja
 * cancelado" (6283), never above what remains. Whole: Status 10 (11 past the authorization's day,
 * 7376), ReturnCode "9" (6233-6240, 6394); a part: Status 2 with ReasonCode 0 (6313-6330).
 */
export function voidCardSale(ctx: SandboxContext, row: CardSaleRow, req: SandboxRequest): Answer {
  const amount = amountOf(req);
  if (row.status !== 1 && row.status !== 2)
    throw apiError(400, CODE.notAvailableToVoid, `the sale's status is ${row.status}`);
  if (row.status === 1 && amount !== undefined && amount !== row.amount)
    throw apiError(400, CODE.notAvailableToVoid, 'a partial void needs a captured sale');
  const remaining = row.status === 2 ? (row.captured_amount ?? row.amount) - row.voided_amount : row.amount;
  if (amount !== undefined && amount > remaining)
    throw apiError(400, CODE.amountInvalid, `amount: at most the ${remaining} that remains`);
  const voided = amount ?? remaining;
  const whole = voided === remaining;
  const final = pastAuthorizationDay(row.authorized_at, ctx.clock.now().getTime()) && row.status === 2 ? 11 : 10;
  const next = update(ctx, row, { status: whole ? final : 2, voided_amount: row.voided_amount + voided });
  ledgerEntry(ctx, {
    kind: whole ? 'card-voided' : 'card-partly-voided',
    paymentId: row.payment_id,
    merchantOrderId: row.merchant_order_id,
    amount: row.status === 2 ? -voided : 0,
  });
  const body = whole
    ? { Status: next.status, ...codes(row), ReturnCode: '9', ReturnMessage: 'Operation Successful' }
    : {
        Status: 2,
        ...codes(row),
        ReasonCode: 0,
        ReasonMessage: 'Successful',
        ProviderReturnCode: '0',
        ProviderReturnMessage: 'Operation Successful',
        ReturnCode: '0',
        ReturnMessage: 'Operation Successful',
        VoidedAmount: next.voided_amount,
      };
  return { status: 200, body: { ...body, Links: cardLinks(ctx, next) } };
}

/** `GET /1/sales/{PaymentId}` of a card sale. */
export function getCardSale(ctx: SandboxContext, row: CardSaleRow): Answer {
  return { status: 200, body: cardAnswer(ctx, row) };
}

/** `PUT /1/sales/{PaymentId}/capture`: a card sale, or 307 "Transaction not found". */
export function captureEcommerceSale(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireMerchant(req);
  const row = findCardSale(ctx, req.route.params.PaymentId ?? '');
  if (!row) throw apiError(404, CODE.notFound);
  return captureCardSale(ctx, row, req);
}

/**
 * `GET /1/sales?merchantOrderId=` (ECOMMERCE:5861-5902): every PaymentId under the order id (the
 * page: "o MerchantOrderId pode ter várias transações", 5863), with `ReceveidDate` as the page spells
 * it; none: 303 "Sent OrderId does not exist".
 */
export function salesByOrderId(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireMerchant(req);
  let orderId: string | null = null;
  for (const [k, v] of req.query) if (k.toLowerCase() === 'merchantorderid') orderId = v;
  if (orderId === null || orderId === '') throw apiError(400, CODE.merchantOrderIdRequired);
  const rows = ctx.db
    .prepare(
      `SELECT payment_id, authorized_at AS at FROM card_sales WHERE merchant_order_id = ?
       UNION ALL SELECT payment_id, created_at AS at FROM ecommerce_sales WHERE merchant_order_id = ? ORDER BY at`,
    )
    .all(orderId, orderId) as { payment_id: string; at: number }[];
  if (rows.length === 0) throw apiError(404, CODE.orderNotFound);
  return {
    status: 200,
    body: { Payment: rows.map((r) => ({ PaymentId: r.payment_id, ReceveidDate: new Date(r.at).toISOString() })) },
  };
}

/**
 * `PUT /1/sales/OrderId/{MerchantOrderId}/void` (ECOMMERCE:6209): "O cancelamento por
 * MerchantOrderId afeta sempre a transação mais nova" (6197); none under it: 303.
 */
export function voidByOrderId(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireMerchant(req);
  const row = ctx.db
    .prepare(`SELECT * FROM card_sales WHERE merchant_order_id = ? ORDER BY authorized_at DESC, rowid DESC LIMIT 1`)
    .get(req.route.params.MerchantOrderId ?? '') as CardSaleRow | undefined;
  if (!row) throw apiError(404, CODE.orderNotFound);
  return voidCardSale(ctx, row, req);
}
