import type { PrinterModel } from '../../../tables/printers/index.js';

/** Options of a virtual printer. */
export interface VirtualPrinterOptions {
  /** The model it behaves as (default `virtual-80`). */
  model?: PrinterModel;
  /** Lines of paper on the roll (default: endless). Printing past them stops with paper out. */
  paperLines?: number;
  /** The near-end sensor trips when this many lines or fewer are left (default 0: off). */
  nearEndLines?: number;
  /** Time to print one line, ms (default 0: instant). Status requests are answered meanwhile. */
  lineMs?: number;
  /**
   * Answer `DLE EOT n` wherever its three bytes appear in the stream, even inside an image's data,
   * as Epson printers do (default false: only at command boundaries).
   */
  realtimeInData?: boolean;
}

/** Faults a test or the control of the simulator can set. */
export interface VirtualPrinterFaults {
  coverOpen?: boolean;
  /** Offline for another reason (power save, a jam): no print, status says offline. */
  offline?: boolean;
  cutterError?: boolean;
}
