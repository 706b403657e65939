import { NOTHING_CHARGED, type AcquirerDeliveryPort, type Delivery } from '../ports.js';

/** After a QR sale was cancelled or expired: query until `until`, undo a late payment. */
export interface WatchTask {
  merchantOrderId: string;
  /** The code's validity end plus a margin (ISO). */
  until: string;
}

/**
 * One look for a late payment: found undone, declined or cancelled → done; confirmed by the host
 * → needs-refund; found in any other state (paid, pending, unreadable) → undone by its PaymentId
 * (`late`); not found → done once `until` has passed, else look again later.
 */
export async function attemptWatch(port: AcquirerDeliveryPort, task: WatchTask, now: Date): Promise<Delivery> {
  const q = await port.queryByOrderId(task.merchantOrderId);
  if (q.kind === 'unknown') return { action: 'retry', reason: `query: ${q.reason}` };
  if (q.kind === 'not-found') {
    return now.getTime() >= Date.parse(task.until)
      ? { action: 'done', reason: 'no payment before the code ended' }
      : { action: 'retry', reason: 'no payment yet; watching until the code ends' };
  }
  if (NOTHING_CHARGED.has(q.state)) return { action: 'done', reason: 'the late payment is already undone or declined' };
  if (q.state === 'confirmed') return { action: 'needs-refund', reason: 'a late payment was confirmed by the host' };
  if (!q.paymentId) return { action: 'retry', reason: 'found without a PaymentId' };
  const d = await port.undo(q.paymentId);
  return d.action === 'done' ? { action: 'done', reason: `a late payment (${q.paymentId}) was undone`, late: true } : d;
}
