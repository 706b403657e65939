import { type EscPosPrinter, conditionOf, encodeDocument } from '../../drivers/printer/index.js';
import type { Environment } from '../config/index.js';
import type { Logger } from '../core/log/index.js';
import type { ReceiptPort, ReceiptReadiness, ReceiptSubject } from '../engine/index.js';
import { paymentReceipt, type ReceiptColumns, type ReceiptCopy } from '../receipt/index.js';
import type { PrinterModel } from '../../tables/printers/index.js';

/** The receipt width for a model: the widest layout its font A fits. */
export function receiptColumns(model: PrinterModel): ReceiptColumns {
  const a = model.columns.a;
  return a >= 48 ? 48 : a >= 42 ? 42 : 32;
}

/**
 * The engine's receipts on an ESC/POS printer: the customer's copy laid out from the host's
 * rows, encoded for the model, sent, and `printed` only when the printer answered after the cut
 * and reports idle and error-free. Nothing sent → `failed`; bytes out but no proof → `unsure`
 * (the cashier is asked). A reprint is marked "SEGUNDA VIA".
 */
export class EscPosReceiptPrinter implements ReceiptPort {
  constructor(
    private readonly printer: EscPosPrinter,
    private readonly model: PrinterModel,
    private readonly environment: Environment,
    private readonly log: Logger,
  ) {}

  async print(
    s: ReceiptSubject,
    options: { reprint?: boolean; copy?: ReceiptCopy } = {},
  ): Promise<'printed' | 'failed' | 'unsure'> {
    const doc = paymentReceipt(s, {
      environment: this.environment,
      copy: options.copy ?? 'customer',
      columns: receiptColumns(this.model),
      reprint: options.reprint ?? false,
    });
    const result = await this.printer.print(encodeDocument(doc, this.model));
    if (result.outcome !== 'printed')
      this.log.warn(
        { merchantOrderId: s.merchantOrderId, outcome: result.outcome, reason: result.reason },
        'receipt not printed',
      );
    return result.outcome === 'printed' ? 'printed' : result.outcome === 'not-printed' ? 'failed' : 'unsure';
  }

  /** Reads the printer's real-time status now: idle is ready; paper out, cover open, an error or offline is not. */
  async ready(): Promise<ReceiptReadiness> {
    try {
      const condition = conditionOf(await this.printer.status());
      return condition === 'idle' ? { ready: true } : { ready: false, reason: condition };
    } catch (e) {
      return { ready: false, reason: `offline (${(e as Error).message})` };
    }
  }
}
