import { EscPosPrinter, isPrinterError, type PrinterErrorCode } from '../../drivers/printer/index.js';
import { OmniposError, type ErrorCode } from '../core/index.js';
import type { PrinterTarget } from './devices.js';

/** Compile-time proof that every printer driver code is in the catalogue under the same name. */
type Missing = Exclude<PrinterErrorCode, ErrorCode>;
const _everyPrinterCodeIsCatalogued: Missing extends never ? true : Missing = true;
void _everyPrinterCodeIsCatalogued;

/** What the printer driver throws, as OmniposError (same code, message and context); anything else unchanged. */
export function fromPrinterError(e: unknown): unknown {
  return isPrinterError(e) ? new OmniposError(e.code, e.message, e.context, { cause: e }) : e;
}

/**
 * A technician's session on the printer of `target` (`omnipos printer status|test`): the ESC/POS
 * driver opened with a 1.5 s reply timeout, `f` run, the driver closed and the target stopped;
 * driver errors become OmniposError.
 */
export async function withPrinterSession<T>(target: PrinterTarget, f: (p: EscPosPrinter) => Promise<T>): Promise<T> {
  const printer = new EscPosPrinter({ transport: target.transport(), model: target.model, replyTimeoutMs: 1500 });
  try {
    await printer.open();
    return await f(printer);
  } catch (e) {
    throw fromPrinterError(e);
  } finally {
    await printer.close().catch(() => undefined);
    await target.stop();
  }
}
