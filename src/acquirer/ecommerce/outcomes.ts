import type { CnpChangeOutcome, CnpSaleOutcome, HostSaleState, SaleQuery } from '../../engine/index.js';
import type { Exchange } from '../omni/outcomes.js';
import { ecommerceStatus } from './states.js';

/**
 * The e-commerce card API's answers → the rulebook's words (`RULEBOOK.sale`'s answers; a queried
 * sale as `SaleQuery`), pure and tested row by row. Lines: `ecom` = the e-commerce page
 * (states.ts). Only a 2xx body that shows a documented status decides; a 4xx is a refusal
 * (the page's "Erros da API": "impedem a criação da transação", ecom:7288); a 5xx, 408, a timeout
 * or a lost connection leaves the outcome unknown.
 */

function paymentOf(body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  const p = b.Payment;
  return p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : b;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

function detailOf(p: Record<string, unknown> | undefined, status?: number): string {
  if (!p) return status !== undefined ? `HTTP ${status}` : 'no body';
  const row = ecommerceStatus(p.Status);
  const parts = [
    row ? `Status ${row.status} ${row.name}` : `Status ${text(p.Status) ?? 'absent'}`,
    text(p.ReturnCode) !== undefined ? `ReturnCode ${text(p.ReturnCode)}` : undefined,
    text(p.ReturnMessage),
  ];
  return parts.filter((x) => x !== undefined).join(', ');
}

/** The published error code of a 4xx answer (`[{Code, Message}]`, read into `ReturnCode` by exchangeOf). */
function publishedCode(ex: Exchange & { kind: 'answer' }): string | undefined {
  return ex.status >= 400 && ex.status < 500 ? text(paymentOf(ex.body)?.ReturnCode) : undefined;
}

function transportDetail(ex: Exchange & { kind: 'transport' }): string {
  return `transport ${ex.failure}`;
}

function recurrenceIdOf(p: Record<string, unknown> | undefined): { recurrenceId?: string } {
  const r = p?.RecurrentPayment;
  const id = r && typeof r === 'object' ? (r as Record<string, unknown>).RecurrentPaymentId : undefined;
  return typeof id === 'string' && id !== '' ? { recurrenceId: id } : {};
}

/** `POST /1/sales` (`CreditCard`): 201 with Status 1 (pre-authorization) or 2 (captured) and a PaymentId. */
export function cardSaleOutcome(ex: Exchange, captureRequested: boolean): CnpSaleOutcome {
  if (ex.kind === 'transport')
    return { answer: ex.failure === 'not-sent' ? 'not-sent' : 'unknown', detail: transportDetail(ex) };
  if (ex.status >= 400 && ex.status < 500 && ex.status !== 408)
    return { answer: 'refused', detail: `HTTP ${ex.status} ${detailOf(paymentOf(ex.body))}` };
  if (ex.status < 200 || ex.status >= 300) return { answer: 'unknown', detail: `HTTP ${ex.status}` };
  const p = paymentOf(ex.body);
  const row = ecommerceStatus(p?.Status);
  const paymentId = typeof p?.PaymentId === 'string' && p.PaymentId !== '' ? p.PaymentId : undefined;
  const card = p?.CreditCard as Record<string, unknown> | undefined;
  const kept = {
    detail: detailOf(p),
    ...(paymentId ? { paymentId } : {}),
    ...(typeof card?.CardNumber === 'string' ? { maskedNumber: card.CardNumber } : {}),
    ...(typeof p?.AuthorizationCode === 'string' ? { authorizationCode: p.AuthorizationCode } : {}),
    // `SaveCard` answers the token (ecom:3351-3352); `RecurrentPayment` its id (ecom:4386-4387).
    ...(typeof card?.CardToken === 'string' && card.SaveCard === true ? { cardToken: card.CardToken } : {}),
    ...recurrenceIdOf(p),
  };
  if (!row || !paymentId) return { answer: 'unknown', ...kept };
  // 3 Denied, 13 Aborted: nothing charged (ecom:7374, 7378).
  if (row.state === 'declined') return { answer: 'declined', state: row.state, ...kept };
  // 2 with capture asked, 1 without: what was asked (ecom:7372-7373; capture false is a pre-authorization, ecom:6059-6062).
  if ((row.status === 2 && captureRequested) || (row.status === 1 && !captureRequested))
    return { answer: 'approved', state: row.state, ...kept };
  // 1 although capture was asked, 2 although it was not: not what was asked; the rulebook voids it.
  if (row.status === 1 || row.status === 2) return { answer: 'anomaly', state: row.state, ...kept };
  return { answer: 'unknown', state: row.state, ...kept };
}

/**
 * A capture's or a void's answer: `done` when its 2xx body shows one of the states it leads to
 * (`expected`), `refused` on a 4xx (a published error: nothing changed), else `unknown` (query).
 */
export function changeOutcome(ex: Exchange, expected: readonly HostSaleState[]): CnpChangeOutcome {
  if (ex.kind === 'transport')
    return ex.failure === 'not-sent'
      ? { kind: 'refused', detail: 'not sent' }
      : { kind: 'unknown', detail: transportDetail(ex) };
  const p = paymentOf(ex.body);
  if (ex.status >= 400 && ex.status < 500 && ex.status !== 408) {
    const code = text(p?.ReturnCode);
    return { kind: 'refused', ...(code !== undefined ? { code } : {}), detail: `HTTP ${ex.status} ${detailOf(p)}` };
  }
  if (ex.status < 200 || ex.status >= 300) return { kind: 'unknown', detail: `HTTP ${ex.status}` };
  const row = ecommerceStatus(p?.Status);
  if (!row || !expected.includes(row.state)) return { kind: 'unknown', detail: detailOf(p) };
  return { kind: 'done', state: row.state, detail: detailOf(p) };
}

/** `GET /1/sales/{PaymentId}`: the sale's status in the engine's words. */
export function cardQueryOutcome(ex: Exchange): SaleQuery {
  if (ex.kind === 'transport') return { kind: 'unknown', reason: transportDetail(ex) };
  // Only the published code says "not found": 307 "Transaction not found" (ECOMMERCE:7529); any other non-2xx is unknown.
  if (publishedCode(ex) === '307') return { kind: 'not-found' };
  if (ex.status < 200 || ex.status >= 300) return { kind: 'unknown', reason: `HTTP ${ex.status}` };
  const p = paymentOf(ex.body);
  const row = ecommerceStatus(p?.Status);
  if (!row) return { kind: 'unknown', reason: detailOf(p) };
  return {
    kind: 'found',
    ...(typeof p?.PaymentId === 'string' ? { paymentId: p.PaymentId } : {}),
    state: row.state,
    captured: row.captured,
    detail: detailOf(p),
    ...(typeof p?.CapturedAmount === 'number' ? { capturedCents: p.CapturedAmount } : {}),
    ...(typeof p?.VoidedAmount === 'number' ? { voidedCents: p.VoidedAmount } : {}),
  };
}

/**
 * `GET /1/sales?merchantOrderId=` (ecom:5889-5902): the PaymentIds under the order id. The newest
 * (by `ReceveidDate`, the page's spelling) is the sale to ask about; an empty list is `not-found`
 * (never final by itself: the rulebook's visibility rule decides).
 */
export function orderIdsOutcome(ex: Exchange): { kind: 'ids'; ids: string[] } | SaleQuery {
  if (ex.kind === 'transport') return { kind: 'unknown', reason: transportDetail(ex) };
  // 303 "Sent OrderId does not exist" (ECOMMERCE:7526) is the published not-found; never final by itself.
  if (publishedCode(ex) === '303') return { kind: 'not-found' };
  if (ex.status < 200 || ex.status >= 300) return { kind: 'unknown', reason: `HTTP ${ex.status}` };
  const list = (ex.body as { Payment?: unknown } | undefined)?.Payment;
  if (!Array.isArray(list)) return { kind: 'unknown', reason: 'no Payment list' };
  const rows = list
    .filter(
      (r): r is Record<string, unknown> =>
        !!r && typeof r === 'object' && typeof (r as Record<string, unknown>).PaymentId === 'string',
    )
    .map((r) => ({
      id: r.PaymentId as string,
      at: typeof r.ReceveidDate === 'string' ? r.ReceveidDate : ((r.ReceivedDate as string | undefined) ?? ''),
    }))
    .sort((a, b) => a.at.localeCompare(b.at));
  if (rows.length === 0) return { kind: 'not-found' };
  return { kind: 'ids', ids: rows.map((r) => r.id) };
}
