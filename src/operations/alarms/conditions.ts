import { formatBRL } from '../../core/index.js';
import type { Condition } from './types.js';

/** What the conditions are checked against: read from the store and the devices, nothing sent. */
export interface AlarmSnapshot {
  now: Date;
  /** The next daily close, host time. */
  nextClose: Date;
  /** Undos still waiting in the outbox (not done, not dead letters). */
  pendingUndos: readonly { taskId: number; merchantOrderId: string; attempts: number; lastError: string | null }[];
  needsRefund: readonly { id: number; kind: string; merchantOrderId: string; amount: number }[];
  deadLetters: readonly {
    taskId: number;
    journalId: number | null;
    operation: string;
    merchantOrderId: string;
    reason: string;
  }[];
  /** As the printer's driver last read it; undefined without a printer or before any read. */
  printer?: { online: boolean; paperOut: boolean; coverOpen: boolean } | undefined;
  /** The pinpad link's status; undefined without one. */
  pinpad?: string | undefined;
  /** How far the host's clock is ahead of ours, ms. */
  clockOffsetMs: number;
  /** Card-not-present pre-authorizations held at the host, uncaptured, with their capture deadline. */
  preAuthorizations?: readonly { id: number; merchantOrderId: string; amount: number; deadline: Date }[];
}

export interface AlarmThresholds {
  /** Undos undelivered this close to the daily close are an alarm, ms. */
  closeWarningMs: number;
  /** A host clock this far off is an alarm, ms. */
  clockOffsetMs: number;
  /** A pre-authorization uncaptured this close to its capture deadline is an alarm, ms (default 24 h). */
  captureWarningMs?: number;
}

const PINPAD_GONE = new Set(['disconnected', 'reconnecting', 'closed']);

/** The conditions that hold in `s`. Pure: the same snapshot gives the same list. */
export function conditions(s: AlarmSnapshot, t: AlarmThresholds): Condition[] {
  const out: Condition[] = [];
  const untilClose = s.pendingUndos.length > 0 ? s.nextClose.getTime() - s.now.getTime() : Infinity;
  if (untilClose <= t.closeWarningMs) {
    const minutes = Math.max(0, Math.floor(untilClose / 60_000));
    out.push({
      key: `undo-near-close:${s.nextClose.toISOString()}`,
      code: 'UNDO_NEAR_CLOSE',
      severity: 'error',
      message: `${s.pendingUndos.length} undo(s) still undelivered ${minutes} min before the daily close (${s.nextClose.toISOString()}): the host will confirm those sales`,
      context: {
        close: s.nextClose.toISOString(),
        undos: s.pendingUndos.map((u) => ({
          merchantOrderId: u.merchantOrderId,
          attempts: u.attempts,
          lastError: u.lastError,
        })),
      },
      once: true,
    });
  }
  for (const r of s.needsRefund) {
    out.push({
      key: `needs-refund:${r.id}`,
      code: 'NEEDS_REFUND',
      severity: 'error',
      message: `${r.kind} ${r.merchantOrderId} (${formatBRL(r.amount)}) stayed charged: give the money back (a void when the customer returns)`,
      context: { id: r.id, merchantOrderId: r.merchantOrderId, amount: r.amount },
      once: true,
    });
  }
  for (const d of s.deadLetters) {
    out.push({
      key: `dead-letter:${d.journalId ?? `task-${d.taskId}`}`,
      code: 'DEAD_LETTER',
      severity: 'error',
      message: `${d.operation} of ${d.merchantOrderId} was refused for good: ${d.reason}`,
      context: { taskId: d.taskId, operation: d.operation, merchantOrderId: d.merchantOrderId, reason: d.reason },
      once: true,
    });
  }
  if (s.printer?.paperOut)
    out.push({
      key: 'printer-paper-out',
      code: 'PRINTER_PAPER_OUT',
      severity: 'warn',
      message: 'the receipt printer is out of paper',
    });
  else if (s.printer && !s.printer.online)
    out.push({
      key: 'printer-offline',
      code: 'PRINTER_OFFLINE',
      severity: 'warn',
      message: 'the receipt printer does not answer',
    });
  if (s.printer?.coverOpen)
    out.push({
      key: 'printer-cover-open',
      code: 'PRINTER_COVER_OPEN',
      severity: 'warn',
      message: "the receipt printer's cover is open",
    });
  if (s.pinpad !== undefined && PINPAD_GONE.has(s.pinpad)) {
    out.push({
      key: 'pinpad-gone',
      code: 'PINPAD_GONE',
      severity: 'error',
      message: `the pinpad is gone (${s.pinpad}): card sales are out of service`,
      context: { status: s.pinpad },
    });
  }
  out.push(...captureDue(s, t));
  if (Math.abs(s.clockOffsetMs) > t.clockOffsetMs) {
    const seconds = Math.round(s.clockOffsetMs / 1000);
    out.push({
      key: 'clock-off',
      code: 'CLOCK_OFF',
      severity: 'warn',
      message: `the terminal's clock is ${Math.abs(seconds)} s ${seconds > 0 ? 'behind' : 'ahead of'} the acquirer's: business time follows the host; fix NTP`,
      context: { hostOffsetMs: s.clockOffsetMs },
    });
  }
  return out;
}

/** CNP_CAPTURE_DUE: a pre-authorization near (or past) its capture deadline, uncaptured: capture or void it. */
function captureDue(s: AlarmSnapshot, t: AlarmThresholds): Condition[] {
  const warn = t.captureWarningMs ?? 24 * 3_600_000;
  return (s.preAuthorizations ?? [])
    .filter((p) => p.deadline.getTime() - s.now.getTime() <= warn)
    .map((p) => {
      const past = p.deadline.getTime() <= s.now.getTime();
      return {
        key: `capture-due:${p.id}`,
        code: 'CNP_CAPTURE_DUE',
        severity: past ? 'error' : 'warn',
        message: past
          ? `pre-authorization ${p.merchantOrderId} (${formatBRL(p.amount)}) passed its capture deadline (${p.deadline.toISOString()}) uncaptured: the host no longer captures it`
          : `pre-authorization ${p.merchantOrderId} (${formatBRL(p.amount)}) must be captured or voided before ${p.deadline.toISOString()}`,
        context: { id: p.id, merchantOrderId: p.merchantOrderId, amount: p.amount, deadline: p.deadline.toISOString() },
        once: true,
      } satisfies Condition;
    });
}

/**
 * The key an engine's alarm event shares with a condition, so one happening is notified once:
 * a sale in needs-refund and a dead letter are both told by the engine and seen by the checks.
 */
export function engineAlarmKey(code: string, journalId: number): string {
  if (code === 'NEEDS_REFUND') return `needs-refund:${journalId}`;
  if (code.endsWith('DEAD_LETTER')) return `dead-letter:${journalId}`;
  return `engine:${code}:${journalId}`;
}
