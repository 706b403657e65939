import type { Ws15Transaction } from './replies.js';

/**
 * The webservice 1.5 host's ledger, read from its own transactions (host.ts keeps them in memory):
 * each transaction as the host holds it now, in cents. `captured` is the capture's amount (the
 * sale's own with `capturar` true), `cancelled` the sum of its cancellations; `charged` what a
 * captured transaction (status 6) still takes of the cardholder, `held` what an authorized one
 * (status 4) reserves. Statuses as the manual's table (ws15:783-792): 4 authorized, 5 declined,
 * 6 captured, 9 cancelled. A pre-authorization whose capture deadline passed is shown cancelled
 * (9), as the service cancels it (ws15:1440).
 */
export interface Ws15LedgerRow {
  tid: string;
  affiliation: string;
  orderNumber: string;
  amount: number;
  status: number;
  captured: number;
  cancelled: number;
  charged: number;
  held: number;
}

const DAY_MS = 86_400_000;

export function ws15Ledger(
  host: { now(): Date; readonly transactions: ReadonlyMap<string, Ws15Transaction> },
  captureDays: number,
): Ws15LedgerRow[] {
  const now = host.now().getTime();
  return [...host.transactions.values()].map((t) => {
    const lapsed = t.status === 4 && now > t.authorization.at.getTime() + captureDays * DAY_MS;
    const status = lapsed ? 9 : t.status;
    const captured = t.capture?.cents ?? 0;
    const cancelled = t.cancellations.reduce((a, c) => a + c.cents, 0);
    return {
      tid: t.tid,
      affiliation: t.affiliation,
      orderNumber: t.orderNumber,
      amount: t.amountCents,
      status,
      captured,
      cancelled,
      charged: status === 6 ? captured - cancelled : 0,
      held: status === 4 ? t.amountCents : 0,
    };
  });
}
