/**
 * What the virtual printer answers, written from Epson's "ESC/POS Command Reference": DLE EOT n
 * (real-time status) and GS r 1 (paper sensor), apart from the driver's decoders (drivers/printer).
 * A DLE EOT answer is one byte `0xx1xx10` (bits 1 and 4 on, 0 and 7 off); GS r's has bits 4 and 7 off.
 */

/** The virtual printer's state as the status commands report it. */
export interface SimPrinterStatus {
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

const FIXED = 0b0001_0010;
const bit = (on: boolean, n: number): number => (on ? 1 << n : 0);

/** The answer to DLE EOT n (n 1-4), or undefined for another n (no answer). */
export function realtimeAnswer(n: number, s: SimPrinterStatus): number | undefined {
  switch (n) {
    case 1: // printer: bit 2 drawer pin 3, bit 3 offline, bit 5 waiting for online recovery, bit 6 feed button
      return (
        FIXED | bit(s.drawerPin3High, 2) | bit(!s.online, 3) | bit(s.waitingOnlineRecovery, 5) | bit(s.feedButton, 6)
      );
    case 2: // offline cause: bit 2 cover open, bit 3 feed by button, bit 5 stopped by paper end, bit 6 error
      return FIXED | bit(s.coverOpen, 2) | bit(s.stoppedByPaperEnd, 5) | bit(s.errorOccurred, 6);
    case 3: // error cause: bit 3 autocutter, bit 5 unrecoverable, bit 6 auto-recoverable
      return FIXED | bit(s.cutterError, 3) | bit(s.unrecoverableError, 5) | bit(s.autoRecoverableError, 6);
    case 4: // roll paper sensor: bits 2-3 near end, bits 5-6 paper out
      return FIXED | (s.paperNearEnd ? 0b0000_1100 : 0) | (s.paperOut ? 0b0110_0000 : 0);
    default:
      return undefined;
  }
}

/** The answer to GS r 1 (n 1 or 49): bits 0-1 paper near end, bits 2-3 paper out; GS r 2 (drawer): 0. */
export function transmitStatusAnswer(n: number, s: SimPrinterStatus): number | undefined {
  if (n === 1 || n === 49) return (s.paperNearEnd ? 0b0011 : 0) | (s.paperOut ? 0b1100 : 0);
  if (n === 2 || n === 50) return 0;
  return undefined;
}
