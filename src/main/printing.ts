import { encodeDocument, type EscPosPrinter, type PrinterStatus } from '../../drivers/printer/index.js';
import type { PrinterModel } from '../../tables/printers/index.js';
import { EscPosReceiptPrinter, openPrinterTarget, printerDriver, receiptColumns } from '../adapters/index.js';
import type { ReceiptColumns, ReceiptDocument } from '../receipt/index.js';
import type { Config } from '../config/index.js';
import type { Logger } from '../core/log/index.js';
import type { ReceiptPort } from '../engine/index.js';
import type { ReceiptService } from '../api/index.js';
import type { VirtualPrinter } from '../sim/index.js';

export interface Printing {
  port: ReceiptPort;
  virtual?: VirtualPrinter;
  /** The last status the driver read (for GET /v1/health; nothing is sent to find out). */
  lastStatus?: () => PrinterStatus | undefined;
  /** Prints a document that is not a sale's receipt (the day's close); absent without a printer. */
  document?: (doc: ReceiptDocument) => Promise<'printed' | 'failed' | 'unsure'>;
  /** Where the printer is (`tcp:10.0.0.5:9100`, `virtual:127.0.0.1:40111`); absent without a printer. */
  description?: string;
  /** The receipt width of the printer's model. */
  columns?: ReceiptColumns;
  close(): Promise<void>;
}

/** A document through the driver: `printed` only when the printer proved it, as for receipts. */
function documentPrinter(
  driver: EscPosPrinter,
  model: PrinterModel,
): (doc: ReceiptDocument) => Promise<'printed' | 'failed' | 'unsure'> {
  return async (doc) => {
    const result = await driver.print(encodeDocument(doc, model));
    return result.outcome === 'printed' ? 'printed' : result.outcome === 'not-printed' ? 'failed' : 'unsure';
  };
}

/**
 * The receipt printer the configuration names (src/adapters/devices.ts builds it, as for the CLI):
 * the virtual one (an ESC/POS printer on a loopback TCP port, driven by the real driver), a
 * network printer, a serial printer, a USB printer-class device, or none (receipts shown, not
 * printed). A real printer that is off at start is opened again at the first receipt.
 */
export async function receiptPrinter(config: Config, log: Logger): Promise<Printing> {
  const env = config.values.environment;
  const target = await openPrinterTarget(config.values.printer);
  if (!target) return { port: { print: () => Promise.resolve('skipped') }, close: () => Promise.resolve() };
  const driver = printerDriver(target, target.virtual ? { pollMs: 20 } : {});
  try {
    if (target.virtual) await driver.open();
    else
      await driver
        .open()
        .catch((e: unknown) => log.warn({ err: e, printer: target.description }, 'printer not reachable at start'));
  } catch (e) {
    await target.stop();
    throw e;
  }
  return {
    port: new EscPosReceiptPrinter(driver, target.model, env, log),
    document: documentPrinter(driver, target.model),
    columns: receiptColumns(target.model),
    description: target.description,
    ...(target.virtual ? { virtual: target.virtual } : {}),
    lastStatus: () => driver.lastStatus,
    close: async () => {
      await driver.close().catch(() => undefined);
      await target.stop();
    },
  };
}

/** What the API's receipt routes use: views of any width, and reprints through the daemon's printer. */
export function receiptService(config: Config, printing: Printing, clock: { now(): Date }): ReceiptService {
  return {
    environment: config.values.environment,
    columns: printing.columns ?? 48,
    reprint: (subject, copy) => printing.port.print(subject, { reprint: true, copy }),
    // The drawing (a virtual printer fed the receipt's bytes) loads at the first PNG asked for (fast start).
    png: async (doc, columns) => (await import('./receipt-png.js')).receiptPng(doc, columns),
    now: () => clock.now(),
  };
}
