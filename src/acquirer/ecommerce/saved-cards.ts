import type { CnpRecurrence, CnpRecurrenceStatus, CnpSaveOutcome } from '../../engine/index.js';
import type { EcommerceRecurrence } from '../ecommerce-client.js';
import type { Exchange } from '../omni/outcomes.js';

/**
 * Saved cards and scheduled recurrences of the e-commerce API → the port's words, pure and tested
 * row by row. Lines: `ecom` = the e-commerce page (states.ts). As for a sale, only a 2xx body that
 * shows what the page documents decides; a 4xx is a refusal naming its published code; the rest is
 * unknown.
 */

function record(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** "Guid 36, xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (ecom:3147). */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function refusedOrUnknown(
  ex: Exchange,
): { kind: 'refused'; code?: string; detail: string } | { kind: 'unknown'; detail: string } {
  if (ex.kind === 'transport')
    return ex.failure === 'not-sent'
      ? { kind: 'refused', detail: 'not sent' }
      : { kind: 'unknown', detail: `transport ${ex.failure}` };
  if (ex.status >= 400 && ex.status < 500 && ex.status !== 408) {
    // exchangeOf reads the first `{Code, Message}` of the error list into ReturnCode / ReturnMessage.
    const b = record(ex.body);
    const code =
      typeof b?.ReturnCode === 'string' || typeof b?.ReturnCode === 'number' ? String(b.ReturnCode) : undefined;
    const message = typeof b?.ReturnMessage === 'string' ? `: ${b.ReturnMessage}` : '';
    return {
      kind: 'refused',
      ...(code ? { code } : {}),
      detail: `HTTP ${ex.status}${code ? ` ${code}` : ''}${message}`,
    };
  }
  return { kind: 'unknown', detail: `HTTP ${ex.status}` };
}

/**
 * `POST /1/card` (ecom:3075-3147): a 2xx with a GUID `CardToken` saved the card; the masked number
 * is the terminal's own (the answer shows none), the brand the one sent.
 */
export function savedCardOutcome(ex: Exchange, card: { maskedNumber: string; brand: string }): CnpSaveOutcome {
  if (ex.kind === 'answer' && ex.status >= 200 && ex.status < 300) {
    const token = record(ex.body)?.CardToken;
    if (typeof token === 'string' && GUID.test(token))
      return { kind: 'saved', token, ...card, detail: `HTTP ${ex.status}, CardToken saved` };
    return { kind: 'unknown', detail: `HTTP ${ex.status} without a CardToken` };
  }
  return refusedOrUnknown(ex);
}

const INTERVAL: Readonly<Record<CnpRecurrence['interval'], NonNullable<EcommerceRecurrence['Interval']>>> = {
  monthly: 'Monthly',
  bimonthly: 'Bimonthly',
  quarterly: 'Quarterly',
  semiannual: 'SemiAnnual',
  annual: 'Annual',
};

/** The sale's `RecurrentPayment` node (ecom:4277-4281): charged now (`AuthorizeNow`), then at each interval. */
export function recurrenceNode(r: CnpRecurrence): EcommerceRecurrence {
  return { AuthorizeNow: true, Interval: INTERVAL[r.interval], ...(r.endDate ? { EndDate: r.endDate } : {}) };
}

/** ecom:6046 "1 - Ativo, 2 - Finalizado, 3 - Desativada pelo Lojista, 4 - … por numero de retentativas, 5 - … por cartão de crédito vencido". */
const RECURRENCE_STATUS: Readonly<Record<number, 'active' | 'finished' | 'deactivated'>> = {
  1: 'active',
  2: 'finished',
  3: 'deactivated',
  4: 'deactivated',
  5: 'deactivated',
};

/**
 * `GET /1/RecurrentPayment/{id}` (ecom:5928-6052): the status of the table; 404 with 168 "Recurrent
 * Payment not found" (ecom:7474) is not found; a status the table lacks is unknown.
 */
export function recurrenceOutcome(ex: Exchange): CnpRecurrenceStatus {
  if (ex.kind === 'answer' && ex.status >= 200 && ex.status < 300) {
    const r = record(record(ex.body)?.RecurrentPayment);
    const status = typeof r?.Status === 'number' ? RECURRENCE_STATUS[r.Status] : undefined;
    if (!r || typeof r.RecurrentPaymentId !== 'string' || !status)
      return { kind: 'unknown', detail: `HTTP ${ex.status}, Status ${String(r?.Status)}` };
    const transactions = Array.isArray(r.RecurrentTransactions) ? r.RecurrentTransactions : [];
    return {
      kind: 'found',
      id: r.RecurrentPaymentId,
      status,
      ...(typeof r.NextRecurrency === 'string' ? { nextDate: r.NextRecurrency } : {}),
      ...(typeof r.Amount === 'number' ? { amountCents: r.Amount } : {}),
      paymentIds: transactions.flatMap((t) => {
        const id = record(t)?.PaymentId;
        return typeof id === 'string' ? [id] : [];
      }),
      detail: `Status ${String(r.Status)}`,
    };
  }
  const other = refusedOrUnknown(ex);
  if (other.kind === 'refused' && other.code === '168') return { kind: 'not-found', detail: other.detail };
  return { kind: 'unknown', detail: other.detail };
}
