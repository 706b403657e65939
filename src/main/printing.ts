import { encodeDocument, type EscPosPrinter, type PrinterStatus } from '../../drivers/printer/index.js';
import type { PrinterModel } from '../../tables/printers/index.js';
import { EscPosReceiptPrinter, openPrinterTarget, printerDriver, receiptColumns } from '../adapters/index.js';
import type { ReceiptColumns, ReceiptCopy, ReceiptDocument } from '../receipt/index.js';
import type { Config } from '../config/index.js';
import type { Logger } from '../core/log/index.js';
import type { ReceiptPort, ReceiptSubject } from '../engine/index.js';
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

/** Past this many first papers remembered, the oldest is forgotten (its next print is then plain). */
const MAX_FIRST_PAPERS = 10_000;

/**
 * Whether a print of the receipt route is the receipt's first paper. A card sale's receipt is printed
 * when the sale is approved (the receipt step), so the route's print is always a second copy; a sale
 * without the card present prints nothing when it is made, so the route's first print of each copy
 * (of the pre-authorization, then of the capture) is the plain one. Known only for the sales made
 * since this daemon started (`started`) and printed since: a sale of before is unknown and is marked
 * "SEGUNDA VIA" (never two papers unmarked). A print that put nothing on paper (`failed`, `skipped`)
 * leaves the next one first.
 */
class FirstPapers {
  readonly #printed = new Set<string>();
  readonly #started: number;

  constructor(started: Date) {
    this.#started = started.getTime();
  }

  /** The key of `subject`'s first paper of `copy`, taken (its next print is a second copy); undefined when not the first. */
  take(subject: ReceiptSubject, copy: ReceiptCopy, createdAt: string | undefined): string | undefined {
    if (!subject.cardNotPresent || createdAt === undefined || !(Date.parse(createdAt) >= this.#started)) return;
    const key = `${subject.merchantOrderId} ${copy} ${subject.cardNotPresent.preAuthorization ? 'held' : 'captured'}`;
    if (this.#printed.has(key)) return;
    this.#printed.add(key);
    if (this.#printed.size > MAX_FIRST_PAPERS) this.#printed.delete(this.#printed.values().next().value as string);
    return key;
  }

  giveBack(key: string): void {
    this.#printed.delete(key);
  }
}

/** What the API's receipt routes use: views of any width, and reprints through the daemon's printer. */
export function receiptService(config: Config, printing: Printing, clock: { now(): Date }): ReceiptService {
  const firsts = new FirstPapers(clock.now());
  return {
    environment: config.values.environment,
    columns: printing.columns ?? 48,
    reprint: async (subject, copy, createdAt) => {
      const first = firsts.take(subject, copy, createdAt);
      const result = await printing.port.print(subject, { reprint: first === undefined, copy });
      if (first !== undefined && (result === 'failed' || result === 'skipped')) firsts.giveBack(first);
      return result;
    },
    // The drawing (a virtual printer fed the receipt's bytes) loads at the first PNG asked for (fast start).
    png: async (doc, columns) => (await import('./receipt-png.js')).receiptPng(doc, columns),
    now: () => clock.now(),
  };
}
