import { newUuid, type SandboxContext } from './context.js';
import { apiError, CODE } from './errors.js';
import { get, type Answer, type SandboxRequest } from './http-kit.js';
import { requireMerchant } from './ecommerce-merchant.js';

/**
 * The scheduled recurrence ("Recorrência Programada") of the e-commerce API, as the page describes
 * it (ECOMMERCE = the e-commerce page; each rule cites its line): a credit sale carrying the node
 * `Payment.RecurrentPayment` (4266-4292) is the recurrence's first transaction; the host keeps the
 * recurrence once that transaction is authorized (3961), or at once when `AuthorizeNow` is false
 * (Status 20 "Scheduled", 4630, 7379); `GET /1/RecurrentPayment/{id}` on the query host answers it
 * (5928-6060). The host's later charges at each interval are not modelled: the model's clock does
 * not run them.
 */

/** ECOMMERCE:4342 "Monthly (Default) / Bimonthly / Quarterly / SemiAnnual / Annual", in months. */
export const INTERVAL_MONTHS = { Monthly: 1, Bimonthly: 2, Quarterly: 3, SemiAnnual: 6, Annual: 12 } as const;
type Interval = keyof typeof INTERVAL_MONTHS;

export interface RecurrenceAsked {
  authorizeNow: boolean;
  interval: Interval;
  startDate?: string;
  endDate?: string;
}

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A boolean as the page's examples send it: `true`, or "true" / "False" (4278, 3943). */
function truth(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  return undefined;
}

/**
 * The node's rules: `AuthorizeNow` required (4343; 166 "AuthorizeNow is required", 7472), one
 * installment (4339, 3859; 179, 7485), the interval among five (4342), dates `YYYY-MM-DD` (3946-3947).
 */
export function readRecurrence(
  body: unknown,
  installments: number | undefined,
): { asked?: RecurrenceAsked; problems: { code: number; detail: string }[] } {
  const node = get(body, 'Payment.RecurrentPayment');
  if (node === undefined || node === null) return { problems: [] };
  const problems: { code: number; detail: string }[] = [];
  const authorizeNow = truth(get(node, 'AuthorizeNow'));
  if (authorizeNow === undefined)
    problems.push({ code: CODE.authorizeNowRequired, detail: 'Payment.RecurrentPayment.AuthorizeNow: true or false' });
  if (installments !== undefined && installments !== 1)
    problems.push({ code: CODE.recurrenceInstallments, detail: 'Payment.Installments: 1 in a recurrence' });
  const rawInterval = get(node, 'Interval') ?? 'Monthly';
  const interval = typeof rawInterval === 'string' && rawInterval in INTERVAL_MONTHS ? (rawInterval as Interval) : null;
  if (interval === null)
    problems.push({
      code: CODE.internal,
      detail: `Payment.RecurrentPayment.Interval: one of ${Object.keys(INTERVAL_MONTHS).join(', ')}`,
    });
  const dates: Partial<Record<'startDate' | 'endDate', string>> = {};
  for (const [key, name] of [
    ['startDate', 'StartDate'],
    ['endDate', 'EndDate'],
  ] as const) {
    const v = get(node, name);
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && DAY.test(v)) dates[key] = v;
    else problems.push({ code: CODE.internal, detail: `Payment.RecurrentPayment.${name}: YYYY-MM-DD` });
  }
  if (problems.length > 0 || authorizeNow === undefined || interval === null) return { problems };
  return { asked: { authorizeNow, interval, ...dates }, problems };
}

/** `YYYY-MM-DD` plus whole months, the day kept (or the month's last). */
function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

interface RecurrenceRow {
  recurrent_payment_id: string;
  merchant_order_id: string;
  amount: number;
  interval: Interval;
  start_date: string;
  end_date: string | null;
  next_date: string;
  status: number;
  created_at: number;
  first_payment_id: string | null;
  customer_name: string | null;
}

/**
 * Keeps the recurrence of a sale the host authorized (or scheduled) and answers the sale's
 * `RecurrentPayment` node as the page shows it (4386-4397): its id, the next date, the end, the
 * interval, the link to its query, `AuthorizeNow`.
 */
export function keepRecurrence(
  ctx: SandboxContext,
  sale: { orderId: string; amount: number; paymentId: string; customerName?: string },
  asked: RecurrenceAsked,
): Record<string, unknown> {
  const id = newUuid();
  const today = ctx.clock.now().toISOString().slice(0, 10);
  const start = asked.authorizeNow ? today : (asked.startDate ?? today);
  const next = asked.authorizeNow ? addMonths(today, INTERVAL_MONTHS[asked.interval]) : start;
  ctx.db
    .prepare(
      `INSERT INTO recurrences (recurrent_payment_id, merchant_order_id, amount, interval, start_date, end_date, next_date, status, created_at, first_payment_id, customer_name)
       VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
    )
    .run(
      id,
      sale.orderId,
      sale.amount,
      asked.interval,
      start,
      asked.endDate ?? null,
      next,
      ctx.clock.now().getTime(),
      asked.authorizeNow ? sale.paymentId : null,
      sale.customerName ?? null,
    );
  return {
    RecurrentPaymentId: id,
    NextRecurrency: next,
    ...(asked.startDate ? { StartDate: asked.startDate } : {}),
    ...(asked.endDate ? { EndDate: asked.endDate } : {}),
    Interval: asked.interval,
    Link: { Method: 'GET', Rel: 'recurrentPayment', Href: recurrenceHref(ctx, id) },
    AuthorizeNow: asked.authorizeNow,
  };
}

function recurrenceHref(ctx: SandboxContext, id: string): string {
  return `${ctx.publicUrl('ecommerceQueries')}/1/RecurrentPayment/${id}`;
}

/**
 * `GET /1/RecurrentPayment/{RecurrentPaymentId}` (ECOMMERCE:5936; the answer 5958-5993, its table
 * 6037-6052): the recurrence and its transactions' ids, `Status` 1 active (6046). An id the host
 * does not hold: 168 "Recurrent Payment not found" (7474), 404 as a query of what does not exist (7324).
 */
export function getRecurrence(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireMerchant(req);
  const row = ctx.db
    .prepare(`SELECT * FROM recurrences WHERE recurrent_payment_id = ?`)
    .get((req.route.params.RecurrentPaymentId ?? '').toLowerCase()) as RecurrenceRow | undefined;
  if (!row) throw apiError(404, CODE.recurrenceNotFound);
  return {
    status: 200,
    body: {
      ...(row.customer_name ? { Customer: { Name: row.customer_name } } : {}),
      RecurrentPayment: {
        RecurrentPaymentId: row.recurrent_payment_id,
        NextRecurrency: row.next_date,
        StartDate: row.start_date,
        ...(row.end_date ? { EndDate: row.end_date } : {}),
        Interval: row.interval,
        Amount: row.amount,
        Country: 'BRA',
        CreateDate: new Date(row.created_at).toISOString().slice(0, 19),
        Currency: 'BRL',
        CurrentRecurrencyTry: 1,
        OrderNumber: row.merchant_order_id,
        Provider: 'Simulado',
        RecurrencyDay: Number(row.start_date.slice(8, 10)),
        SuccessfulRecurrences: 0,
        Links: [{ Method: 'GET', Rel: 'self', Href: recurrenceHref(ctx, row.recurrent_payment_id) }],
        RecurrentTransactions: row.first_payment_id
          ? [{ PaymentId: row.first_payment_id, PaymentNumber: 0, TryNumber: 1 }]
          : [],
        Status: row.status,
      },
    },
  };
}
