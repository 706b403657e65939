import { PrinterError } from './errors.js';

/**
 * Real-time status (DLE EOT n) as data: for each n, the bits a reply sets and what each means.
 * Every reply has bit 1 and bit 4 on and bits 0 and 7 off (`0xx1xx10`), which is how a reply
 * is told apart from a GS r answer (bit 4 off) in the same byte stream.
 */
export const REALTIME_BITS = {
  1: { drawerPin3High: 0x04, offline: 0x08, waitingOnlineRecovery: 0x20, feedButton: 0x40 },
  2: { coverOpen: 0x04, feedingByButton: 0x08, stoppedByPaperEnd: 0x20, errorOccurred: 0x40 },
  3: { cutterError: 0x08, unrecoverableError: 0x20, autoRecoverableError: 0x40 },
  4: { paperNearEnd: 0x0c, paperOut: 0x60 },
} as const;

/** What the four DLE EOT replies say, together. */
export interface PrinterStatus {
  readonly online: boolean;
  readonly coverOpen: boolean;
  readonly paperOut: boolean;
  readonly paperNearEnd: boolean;
  readonly stoppedByPaperEnd: boolean;
  readonly errorOccurred: boolean;
  readonly cutterError: boolean;
  readonly unrecoverableError: boolean;
  readonly autoRecoverableError: boolean;
  readonly waitingOnlineRecovery: boolean;
  readonly feedButton: boolean;
  readonly drawerPin3High: boolean;
}

/** True for a byte shaped like a DLE EOT reply (`0xx1xx10`). */
export function isRealtimeReply(byte: number): boolean {
  return (byte & 0x93) === 0x12;
}

/** True for a byte shaped like a GS r answer (bits 4 and 7 off). */
export function isTransmitStatusReply(byte: number): boolean {
  return (byte & 0x90) === 0x00;
}

function bitsOf<N extends keyof typeof REALTIME_BITS>(
  n: N,
  byte: number,
): Record<keyof (typeof REALTIME_BITS)[N], boolean> {
  if (!Number.isInteger(byte) || byte < 0 || byte > 0xff || !isRealtimeReply(byte)) {
    throw new PrinterError(
      'PRINTER_PROTOCOL',
      `DLE EOT ${n}: reply 0x${byte.toString(16).padStart(2, '0')} lacks the fixed bits 0xx1xx10`,
      { n, byte },
    );
  }
  const out: Record<string, boolean> = {};
  for (const [k, mask] of Object.entries(REALTIME_BITS[n])) out[k] = (byte & mask) === mask;
  return out as Record<keyof (typeof REALTIME_BITS)[N], boolean>;
}

/** The four replies (to DLE EOT 1, 2, 3 and 4) as one status. Throws PRINTER_PROTOCOL on a malformed byte. */
export function decodeRealtimeStatus(printer: number, offline: number, error: number, paper: number): PrinterStatus {
  const p = bitsOf(1, printer);
  const o = bitsOf(2, offline);
  const e = bitsOf(3, error);
  const s = bitsOf(4, paper);
  return {
    online: !p.offline,
    coverOpen: o.coverOpen,
    paperOut: s.paperOut,
    paperNearEnd: s.paperNearEnd,
    stoppedByPaperEnd: o.stoppedByPaperEnd,
    errorOccurred: o.errorOccurred,
    cutterError: e.cutterError,
    unrecoverableError: e.unrecoverableError,
    autoRecoverableError: e.autoRecoverableError,
    waitingOnlineRecovery: p.waitingOnlineRecovery,
    feedButton: p.feedButton,
    drawerPin3High: p.drawerPin3High,
  };
}

/** The reply bytes a printer in `status` sends to DLE EOT 1..4 (the virtual printer answers with these). */
export function encodeRealtimeStatus(status: PrinterStatus): [number, number, number, number] {
  const on = (b: boolean, mask: number): number => (b ? mask : 0);
  return [
    0x12 |
      on(status.drawerPin3High, 0x04) |
      on(!status.online, 0x08) |
      on(status.waitingOnlineRecovery, 0x20) |
      on(status.feedButton, 0x40),
    0x12 | on(status.coverOpen, 0x04) | on(status.stoppedByPaperEnd, 0x20) | on(status.errorOccurred, 0x40),
    0x12 | on(status.cutterError, 0x08) | on(status.unrecoverableError, 0x20) | on(status.autoRecoverableError, 0x40),
    0x12 | on(status.paperNearEnd, 0x0c) | on(status.paperOut, 0x60),
  ];
}

/** GS r 1 answer: paper near end (bits 0,1) and paper out (bits 2,3). */
export function decodeTransmitPaperStatus(byte: number): { paperNearEnd: boolean; paperOut: boolean } {
  if (!isTransmitStatusReply(byte))
    throw new PrinterError('PRINTER_PROTOCOL', `GS r 1: answer 0x${byte.toString(16)} has bit 4 or 7 on`, { byte });
  return { paperNearEnd: (byte & 0x03) === 0x03, paperOut: (byte & 0x0c) === 0x0c };
}

/** The one word for a status: what stops printing first, or `idle` when nothing does. */
export type PrinterCondition = 'idle' | 'paper-out' | 'cover-open' | 'offline' | 'error';

export function conditionOf(s: PrinterStatus): PrinterCondition {
  if (s.coverOpen) return 'cover-open';
  if (s.paperOut || s.stoppedByPaperEnd) return 'paper-out';
  if (s.cutterError || s.unrecoverableError || s.autoRecoverableError || s.errorOccurred) return 'error';
  if (!s.online) return 'offline';
  return 'idle';
}

/** Typed events for a change of status (the driver emits them while it polls). */
export type PrinterEvent =
  | { readonly type: 'paper-out'; readonly status: PrinterStatus }
  | { readonly type: 'paper-near-end'; readonly status: PrinterStatus }
  | { readonly type: 'cover-open'; readonly status: PrinterStatus }
  | { readonly type: 'offline'; readonly status: PrinterStatus }
  | {
      readonly type: 'error';
      readonly status: PrinterStatus;
      readonly cause: 'cutter' | 'unrecoverable' | 'auto-recoverable' | 'other';
    }
  | { readonly type: 'idle'; readonly status: PrinterStatus }
  | { readonly type: 'disconnected' };

/** Events for going from `prev` (undefined at first) to `next`: each condition that began, and `idle` when all cleared. */
export function statusEvents(prev: PrinterStatus | undefined, next: PrinterStatus): PrinterEvent[] {
  const began = (k: keyof PrinterStatus): boolean => next[k] && (!prev || !prev[k]);
  const events: PrinterEvent[] = [];
  if (began('coverOpen')) events.push({ type: 'cover-open', status: next });
  if (began('paperOut')) events.push({ type: 'paper-out', status: next });
  if (began('paperNearEnd') && !next.paperOut) events.push({ type: 'paper-near-end', status: next });
  if (began('cutterError')) events.push({ type: 'error', status: next, cause: 'cutter' });
  if (began('unrecoverableError')) events.push({ type: 'error', status: next, cause: 'unrecoverable' });
  if (began('autoRecoverableError')) events.push({ type: 'error', status: next, cause: 'auto-recoverable' });
  if (conditionOf(next) === 'offline' && (!prev || conditionOf(prev) !== 'offline'))
    events.push({ type: 'offline', status: next });
  const idle = conditionOf(next) === 'idle';
  if (idle && (!prev || conditionOf(prev) !== 'idle')) events.push({ type: 'idle', status: next });
  return events;
}

/** A status with nothing wrong. */
export const IDLE_STATUS: PrinterStatus = Object.freeze({
  online: true,
  coverOpen: false,
  paperOut: false,
  paperNearEnd: false,
  stoppedByPaperEnd: false,
  errorOccurred: false,
  cutterError: false,
  unrecoverableError: false,
  autoRecoverableError: false,
  waitingOnlineRecovery: false,
  feedButton: false,
  drawerPin3High: false,
});
