/**
 * Every alarm code this terminal raises (health, logs, the webhook, GET /v1/alarms): the operations'
 * conditions (src/operations/alarms/conditions.ts) and the engines' own (their machines' `alarm` effects,
 * the outbox's). An engine or a condition naming a code not listed here does not compile.
 */
export const ALARM_CODES = [
  // The operations' conditions.
  'UNDO_NEAR_CLOSE',
  'NEEDS_REFUND',
  'DEAD_LETTER',
  'OUTBOX_STUCK',
  'PRINTER_PAPER_OUT',
  'PRINTER_OFFLINE',
  'PRINTER_COVER_OPEN',
  'PINPAD_GONE',
  'CLOCK_OFF',
  'STORE_WRITE_FAILED',
  'DISK_LOW',
  // The engines' (one per outbox operation that can be dead-lettered, and what a machine tells on its own).
  'CONFIRM_DEAD_LETTER',
  'UNDO_DEAD_LETTER',
  'QR_DEAD_LETTER',
  'PIX_DEAD_LETTER',
  'PIX_REFUND_DEAD_LETTER',
  /** The Pix provider refused a refund (its answer's ReasonCode, or a 4xx): the customer is not paid back. */
  'PIX_REFUND_REFUSED',
  'VOID_CONFIRM_DEAD_LETTER',
  'VOID_UNDO_DEAD_LETTER',
  'QR_LATE_PAYMENT',
  /** A QR code (a wallet's or a Pix's) shown so near the daily close that its validity and watch run past it. */
  'QR_PAST_CLOSE',
  'PIX_LATE_PAYMENT',
  'VOID_RECEIPT_FAILED',
  'VOID_STOOD',
  'HOST_ANOMALY',
  /** A card-not-present pre-authorization still uncaptured this close to its host's capture deadline (or past it). */
  'CNP_CAPTURE_DUE',
  /**
   * The host shows another terminal's sale under one of our order ids (`orderIdTerminal` is unique per
   * terminal, not per merchant): the terminal stays safe (it never undoes by that id); someone must give
   * the merchant's terminals distinct `terminal.orderIdTerminal`s.
   */
  'ORDER_ID_SHARED',
  // The supervisor gate's: a client locked out after wrong supervisor credentials.
  'SUPERVISOR_LOCKOUT',
] as const;

export type AlarmCode = (typeof ALARM_CODES)[number];

/**
 * The alarms GET /v1/health does not repeat as `alarm: CODE` problems, because it tells them on a line of
 * its own: a dead-lettered outbox task (`outbox: N dead letters`, whichever alarm told it) and the pinpad
 * gone (`pinpad: …`). Compared whole, never by a part of the code's text.
 */
export const ALARMS_HEALTH_TELLS_ITSELF: ReadonlySet<AlarmCode> = new Set<AlarmCode>([
  'DEAD_LETTER',
  'CONFIRM_DEAD_LETTER',
  'UNDO_DEAD_LETTER',
  'QR_DEAD_LETTER',
  'PIX_DEAD_LETTER',
  'PIX_REFUND_DEAD_LETTER',
  'VOID_CONFIRM_DEAD_LETTER',
  'VOID_UNDO_DEAD_LETTER',
  'PINPAD_GONE',
]);

/** Whether `code` (as an event or a stored alarm carries it: text) is one of {@link ALARMS_HEALTH_TELLS_ITSELF}. */
export function healthTellsAlarmItself(code: string): boolean {
  return (ALARMS_HEALTH_TELLS_ITSELF as ReadonlySet<string>).has(code);
}
