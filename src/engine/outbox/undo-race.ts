import { nextDailyClose } from '../daily-close.js';
import { NOTHING_CHARGED, type AcquirerDeliveryPort, type Delivery } from '../ports.js';
import type { UndoTask } from './tasks.js';

export interface UndoRaceOptions {
  /** How long after the request left the host may still be processing it (or not show it yet), ms. */
  processingWindowMs: number;
  /**
   * The undo by order id and its query run until this long before the close of the sale's day
   * (default 5 min); from then on only a sale the query shows pending is undone, by PaymentId.
   */
  closeMarginMs?: number;
  /** Not-found answers needed past the close (and the window) before "nothing was charged" is final. Default 2. */
  agreeingQueries?: number;
}

export interface UndoAttempt {
  delivery: Delivery;
  /** The payload to keep for the next attempt, when it changed. */
  payload?: UndoTask;
}

const DEFAULT_CLOSE_MARGIN_MS = 5 * 60_000;

/** The close of the business day the sale was sent in (host time): the host confirms what is pending then. */
export function saleClose(task: { sentAt: string }): Date {
  return nextDailyClose(new Date(task.sentAt));
}

/**
 * One attempt at undoing a sale (the undo race of docs/decisions.md, bounded by the SALE's business day).
 *
 * - Until `closeMarginMs` before the close of the day the sale was sent in: undo (by PaymentId
 *   when known, else by order id) and, unless its 2xx answer decided, query by order id.
 * - Whatever the time: the query showing the sale undone, declined or cancelled (nothing
 *   charged) → done; confirmed → `needs-refund` at once (the undo can no longer happen).
 * - In the last minutes and after the close: a sale the query shows still pending is undone by
 *   its PaymentId, attempt after attempt, while the host shows it pending; past the close an
 *   e-commerce QR sale still paid (`captured`) → `needs-refund`.
 * - "Not found" is never final before the close: the sale may become visible late. Only past
 *   the close (and the processing window), when `agreeingQueries` queries agree, is it
 *   "nothing was charged".
 */
export async function attemptUndo(
  port: AcquirerDeliveryPort,
  task: UndoTask,
  now: Date,
  options: UndoRaceOptions,
): Promise<UndoAttempt> {
  const close = saleClose(task).getTime();
  const t = now.getTime();
  const racing = t < close - (options.closeMarginMs ?? DEFAULT_CLOSE_MARGIN_MS);
  const pastClose = t >= close;
  if (racing) {
    const d = task.paymentId
      ? await port.undo(task.paymentId, task.emv)
      : await port.undoByOrderId(task.merchantOrderId, task.emv);
    if (d.action !== 'retry') return { delivery: d };
  }
  const q = await port.queryByOrderId(
    task.merchantOrderId,
    task.amount !== undefined ? { amount: task.amount } : undefined,
  );
  if (q.kind === 'unknown') return { delivery: { action: 'retry', reason: `query: ${q.reason}` } };
  if (q.kind === 'not-found') {
    if (!pastClose)
      return { delivery: { action: 'retry', reason: "not found yet: never final before the close of the sale's day" } };
    if (t - Date.parse(task.sentAt) < options.processingWindowMs) {
      return { delivery: { action: 'retry', reason: 'not found yet; inside the processing window' } };
    }
    const count = (task.notFoundAfterWindow ?? 0) + 1;
    if (count >= (options.agreeingQueries ?? 2)) {
      return {
        delivery: {
          action: 'done',
          reason: `not found ${count} times after the close of the sale's day: nothing was charged`,
        },
      };
    }
    return {
      delivery: { action: 'retry', reason: 'not found after the close; asking again' },
      payload: { ...task, notFoundAfterWindow: count },
    };
  }
  const paymentId = q.paymentId ?? task.paymentId;
  const changed = (q.paymentId && q.paymentId !== task.paymentId) || task.notFoundAfterWindow !== undefined;
  const next: UndoTask | undefined = changed
    ? (({ notFoundAfterWindow: _n, ...rest }) => ({ ...rest, ...(paymentId ? { paymentId } : {}) }))(task)
    : undefined;
  const keep = next ? { payload: next } : {};
  if (q.state === 'undone') return { delivery: { action: 'done', reason: 'the host shows it undone' }, ...keep };
  if (NOTHING_CHARGED.has(q.state)) {
    const shown = q.detail ? `${q.state} (${q.detail})` : q.state;
    return { delivery: { action: 'done', reason: `the host shows it ${shown}: nothing to undo` }, ...keep };
  }
  if (q.state === 'confirmed') {
    return {
      delivery: {
        action: 'needs-refund',
        reason: pastClose
          ? 'the host confirmed it at the daily close'
          : 'the host shows it confirmed: the undo can no longer happen',
      },
      ...keep,
    };
  }
  if (pastClose && q.captured === true) {
    return {
      delivery: { action: 'needs-refund', reason: 'captured when paid, and still paid after the daily close' },
      ...keep,
    };
  }
  if (!racing && paymentId) {
    // Still pending at the host in the last minutes or past the close: undo it by its PaymentId.
    const d = await port.undo(paymentId, task.emv);
    if (d.action !== 'retry') return { delivery: d, ...keep };
    return {
      delivery: { action: 'retry', reason: `still pending at the host; undo by PaymentId: ${d.reason}` },
      ...keep,
    };
  }
  return {
    delivery: {
      action: 'retry',
      reason: next?.paymentId && !task.paymentId ? 'found; undo by PaymentId next' : 'still pending at the host',
    },
    ...keep,
  };
}
