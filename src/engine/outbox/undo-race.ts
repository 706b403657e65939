import { type AcquirerDeliveryPort, type Delivery, type SaleQuery } from '../ports.js';
import { UNDO, decide, notFoundVerdict, operationClose, type VisibilityOptions } from '../rules/index.js';
import type { UndoTask } from './tasks.js';

export interface UndoRaceOptions extends Omit<VisibilityOptions, 'agreeing'> {
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
  return operationClose(task.sentAt);
}

/** The visibility rule's options from the race's. */
export function visibilityOf(options: UndoRaceOptions): VisibilityOptions {
  return {
    processingWindowMs: options.processingWindowMs,
    ...(options.visibilityWindowMs !== undefined ? { visibilityWindowMs: options.visibilityWindowMs } : {}),
    ...(options.agreeingQueries !== undefined ? { agreeing: options.agreeingQueries } : {}),
  };
}

/**
 * One attempt at undoing a sale (the undo race of docs/decisions.md, bounded by the SALE's business
 * day), decided by the rulebook's `sale.undo` table (rules/book.ts `UNDO`):
 *
 * - Until `closeMarginMs` before the close of the day the sale was sent in: undo by PaymentId when
 *   known and, unless its 2xx answer decided, query by order id. Without a PaymentId the query goes
 *   first (a sale it shows is checked to be ours by the adapter) and the undo by order id follows
 *   only when it shows nothing under that order id: never before an ownership check could run.
 * - The query decides by the table: nothing charged → done; confirmed → `needs-refund`; still
 *   pending → undone by its PaymentId (in the last minutes and past the close; before, the next
 *   attempt's undo does it); past the close an e-commerce QR sale still paid (`captured`) →
 *   `needs-refund`.
 * - Not found: the visibility rule (rules/visibility.ts): never final before the close of the
 *   sale's day, and only after the window counted from that close. A query that shows only another
 *   terminal's sale under our order id (`not-ours`) is ours not found, by the same rule; the undo by
 *   order id is then never sent (it would undo the other sale).
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
  if (racing && task.paymentId) {
    const d = await port.undo(task.paymentId, task.emv);
    if (d.action !== 'retry') return { delivery: d };
  }
  const q = await port.queryByOrderId(
    task.merchantOrderId,
    task.amount !== undefined ? { amount: task.amount } : undefined,
  );
  if (q.kind === 'unknown') return { delivery: { action: 'retry', reason: `query: ${q.reason}` } };
  if (q.kind === 'not-found' || q.kind === 'not-ours') {
    if (racing && !task.paymentId && q.kind === 'not-found') {
      // Nothing visible under the order id (ours or another terminal's): the undo by order id may
      // reach our sale while it lands. A sale shown is undone only by its PaymentId, once it is ours.
      const d = await port.undoByOrderId(task.merchantOrderId, task.emv);
      if (d.action !== 'retry') return { delivery: d };
    }
    // Only another terminal's sale under our order id: ours is not shown, by the same visibility rule.
    const v = notFoundVerdict(task.sentAt, now, task.notFoundAfterWindow, visibilityOf(options), 'the sale');
    const other = q.kind === 'not-ours' ? ` (the host shows only ${q.reason})` : '';
    const shared = q.kind === 'not-ours' ? { sharedOrderId: q.reason } : {};
    if (v.final) return { delivery: { action: 'done', reason: `${v.reason}: nothing was charged${other}`, ...shared } };
    return {
      delivery: { action: 'retry', reason: `${v.reason}${other}`, ...shared },
      ...(v.count !== (task.notFoundAfterWindow ?? 0) ? { payload: { ...task, notFoundAfterWindow: v.count } } : {}),
    };
  }
  return found(port, task, q, { racing, pastClose: t >= close });
}

/** The sale was found: the `sale.undo` table decides. */
async function found(
  port: AcquirerDeliveryPort,
  task: UndoTask,
  q: Extract<SaleQuery, { kind: 'found' }>,
  when: { racing: boolean; pastClose: boolean },
): Promise<UndoAttempt> {
  const paymentId = q.paymentId ?? task.paymentId;
  const changed = (q.paymentId && q.paymentId !== task.paymentId) || task.notFoundAfterWindow !== undefined;
  const next: UndoTask | undefined = changed
    ? (({ notFoundAfterWindow: _n, ...rest }) => ({ ...rest, ...(paymentId ? { paymentId } : {}) }))(task)
    : undefined;
  const keep = next ? { payload: next } : {};
  const rule = decide(UNDO, q.state);
  const shown = q.detail ? `${q.state} (${q.detail})` : q.state;
  if (rule.decision === 'done')
    return { delivery: { action: 'done', reason: `the host shows it ${shown}: ${rule.why}` }, ...keep };
  if (rule.decision === 'needs-refund')
    return {
      delivery: {
        action: 'needs-refund',
        reason: when.pastClose
          ? 'the host confirmed it at the daily close'
          : `the host shows it confirmed: ${rule.why}`,
      },
      ...keep,
    };
  if (when.pastClose && q.captured === true) {
    return {
      delivery: { action: 'needs-refund', reason: 'captured when paid, and still paid after the daily close' },
      ...keep,
    };
  }
  if (!when.racing && paymentId) {
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
