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
}

export interface AlarmThresholds {
  /** Undos undelivered this close to the daily close are an alarm, ms. */
  closeWarningMs: number;
  /** A host clock this far off is an alarm, ms. */
  clockOffsetMs: number;
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

/**
 * The key an engine's alarm event shares with a condition, so one happening is notified once:
 * a sale in needs-refund and a dead letter are both told by the engine and seen by the checks.
 */
export function engineAlarmKey(code: string, journalId: number): string {
  if (code === 'NEEDS_REFUND') return `needs-refund:${journalId}`;
  if (code.endsWith('DEAD_LETTER')) return `dead-letter:${journalId}`;
  return `engine:${code}:${journalId}`;
}
