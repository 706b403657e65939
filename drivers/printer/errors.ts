/**
 * The printer driver's own error type. drivers/ may not import src/, so the driver throws
 * `PrinterError` with a stable `code` (the same strings as the catalogue in
 * src/core/errors/codes.ts); adapters and the CLI map it to `OmniposError` with the same code.
 */
export const PRINTER_ERROR_CODES = [
  /** The link is down: connection closed, write failed, device removed. */
  'PRINTER_DISCONNECTED',
  /** The printer did not answer a real-time status request in time. */
  'PRINTER_TIMEOUT',
  /** Bytes from or for the printer that do not decode (bad status byte, truncated command). */
  'PRINTER_PROTOCOL',
  /** A value the caller gave does not fit a command (text out of the code page is transliterated, not refused). */
  'PRINTER_INVALID_ARGUMENT',
  /** The model lacks what was asked (no cutter for a full cut, no drawer connector). */
  'PRINTER_UNSUPPORTED',
  /** No printer at the configured address, or it cannot be opened. */
  'PRINTER_NOT_FOUND',
] as const;

export type PrinterErrorCode = (typeof PRINTER_ERROR_CODES)[number];

/** An error raised by drivers/printer. Carries what and where in `context`. */
export class PrinterError extends Error {
  readonly code: PrinterErrorCode;
  readonly context: Readonly<Record<string, unknown>>;

  constructor(
    code: PrinterErrorCode,
    message: string,
    context: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PrinterError';
    this.code = code;
    this.context = context;
  }

  toJSON(): { code: PrinterErrorCode; message: string; context: Readonly<Record<string, unknown>> } {
    return { code: this.code, message: this.message, context: this.context };
  }
}

/** True when `e` is a PrinterError (of `code`, when given). */
export function isPrinterError(e: unknown, code?: PrinterErrorCode): e is PrinterError {
  return e instanceof PrinterError && (code === undefined || e.code === code);
}
