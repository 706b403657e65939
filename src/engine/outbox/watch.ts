import type { AcquirerDeliveryPort, Delivery } from '../ports.js';
import { QR_WATCH, decide, notFoundVerdict, type VisibilityOptions } from '../rules/index.js';

/** After a QR sale was cancelled or expired: query until `until`, undo a late payment. */
export interface WatchTask {
  merchantOrderId: string;
  /** The code's validity end plus a margin (ISO). */
  until: string;
  /** The sale's amount, cents: a sale found by order id must match it (and be this terminal's) to be undone. */
  amount?: number;
  /** The sale the host held payable for the code (an e-commerce QR sale at 12) was voided there. */
  hostCancelled?: boolean;
  /** Not-found answers counted past the close of the code's day and the window after it (rules/visibility.ts). */
  notFoundAfterWindow?: number;
}

/** Why a watch whose code has ended is still open: the host confirms at the close what it took that day. */
export const AWAITING_HOST_CLOSE = "awaiting the host's close";

export interface WatchAttempt {
  delivery: Delivery;
  payload?: WatchTask;
}

/**
 * One look for a late payment, decided by the rulebook's `qr.watch` table (rules/book.ts
 * `QR_WATCH`; for an e-commerce QR sale `qr.watch (e-commerce QR)`): first, once, a sale the host
 * still holds payable for the code (`cancelPending`: the e-commerce QR sale made with `Capture:
 * true` stays 12 until a wallet pays it, ecom:2584) is voided there, until the host shows it 10.
 * Then the query by order id, with the sale's amount so that a sale that is not ours is never
 * reported found (nor undone): nothing charged → done; confirmed → needs-refund; paid, pending or
 * unreadable → undone by its PaymentId (`late`). Not found: watched until `until` (the code's end
 * and its margin, the last instant a payment may have been taken), then the visibility rule
 * (rules/visibility.ts), as for every operation: never final before the close of the day `until`
 * falls in, and only after the window after that close, when `agreeing` answers agree — a payment
 * the query host shows late is found and undone, never confirmed at the close behind the terminal's
 * back. That wait is the watch doing its job (`watching`: no OUTBOX_STUCK); the day report and
 * health show it as "awaiting the host's close".
 */
export async function attemptWatch(
  port: AcquirerDeliveryPort,
  task: WatchTask,
  now: Date,
  visibility: VisibilityOptions,
): Promise<WatchAttempt> {
  let payload: WatchTask | undefined;
  if (!task.hostCancelled && port.cancelPending) {
    const c = await port.cancelPending(task.merchantOrderId);
    if (c.action !== 'done') return { delivery: { action: 'retry', reason: `cancel at the host: ${c.reason}` } };
    payload = { ...task, hostCancelled: true };
  }
  const keep = payload ? { payload } : {};
  const q = await port.queryByOrderId(
    task.merchantOrderId,
    task.amount !== undefined ? { amount: task.amount } : undefined,
  );
  if (q.kind === 'unknown') return { delivery: { action: 'retry', reason: `query: ${q.reason}` }, ...keep };
  // Only another terminal's sale under the code's order id: ours is not paid (never undo the other).
  const rule = decide(QR_WATCH, q.kind === 'found' ? q.state : 'not-found');
  // A payment found is recorded whatever follows (undone, kept or given up), as a payment seen on time is.
  const payment =
    q.kind === 'found' && q.paymentId
      ? { paymentId: q.paymentId, ...(q.authorization ? { authorization: q.authorization } : {}) }
      : undefined;
  const found = payment ? { payment } : {};
  switch (rule.decision) {
    case 'watch':
      return notFound(payload ?? task, now, visibility, payload !== undefined);
    case 'done':
      return { delivery: { action: 'done', reason: 'the late payment is already undone or declined' }, ...keep };
    case 'needs-refund':
      return {
        delivery: { action: 'needs-refund', reason: 'a late payment was confirmed by the host', ...found },
        ...keep,
      };
    default:
      break;
  }
  if (!payment) return { delivery: { action: 'retry', reason: 'found without a PaymentId' }, ...keep };
  const d = await port.undo(payment.paymentId);
  return {
    delivery:
      d.action === 'done'
        ? { action: 'done', reason: `a late payment (${payment.paymentId}) was undone`, late: true, payment }
        : { ...d, payment },
    ...keep,
  };
}

/** Nothing found under the code's order id: watch until the code ends, then the visibility rule decides. */
function notFound(task: WatchTask, now: Date, visibility: VisibilityOptions, changed: boolean): WatchAttempt {
  if (now.getTime() < Date.parse(task.until))
    return {
      delivery: { action: 'retry', reason: 'no payment yet; watching until the code ends', watching: true },
      ...(changed ? { payload: task } : {}),
    };
  const v = notFoundVerdict(task.until, now, task.notFoundAfterWindow, visibility, 'the code');
  const counted = v.count !== (task.notFoundAfterWindow ?? 0);
  const keep = changed || counted ? { payload: { ...task, notFoundAfterWindow: v.count } } : {};
  if (v.final) return { delivery: { action: 'done', reason: `no payment: ${v.reason}` }, ...keep };
  return {
    delivery: { action: 'retry', reason: `the code ended; ${AWAITING_HOST_CLOSE} (${v.reason})`, watching: true },
    ...keep,
  };
}
