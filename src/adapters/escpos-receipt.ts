import type { EscPosPrinter } from '../../drivers/printer/index.js';
import { encodeDocument } from '../../drivers/printer/index.js';
import type { Environment } from '../config/index.js';
import type { Logger } from '../core/log/index.js';
import type { ReceiptPort, ReceiptSubject } from '../engine/ports.js';
import { receiptDocument, type ReceiptColumns } from '../receipt/index.js';
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
 * (the cashier is asked).
 */
export class EscPosReceiptPrinter implements ReceiptPort {
  constructor(
    private readonly printer: EscPosPrinter,
    private readonly model: PrinterModel,
    private readonly environment: Environment,
    private readonly log: Logger,
  ) {}

  async print(s: ReceiptSubject): Promise<'printed' | 'failed' | 'unsure'> {
    const doc = receiptDocument(
      {
        kind: 'sale',
        environment: this.environment,
        paymentType: s.paymentType,
        amount: s.amount,
        installments: s.installments,
        ...(s.interest ? { interest: s.interest } : {}),
        receiptInformation: (s.hostReceipt?.fields ?? []).map((f) => ({ Field: f.field, Label: f.label, Content: f.content })),
        printMessages: (s.hostReceipt?.messages ?? []).map((m) => ({ Position: m.position, Message: m.message })),
        merchantOrderId: s.merchantOrderId,
        ...(s.authorizationCode ? { authorizationCode: s.authorizationCode } : {}),
        ...(s.nsu ? { nsu: s.nsu } : {}),
        ...(s.maskedPan ? { maskedPan: s.maskedPan } : {}),
        ...(s.cvm ? { cvm: s.cvm } : {}),
      },
      'customer',
      receiptColumns(this.model),
    );
    const result = await this.printer.print(encodeDocument(doc, this.model));
    if (result.outcome !== 'printed') this.log.warn({ merchantOrderId: s.merchantOrderId, outcome: result.outcome, reason: result.reason }, 'receipt not printed');
    return result.outcome === 'printed' ? 'printed' : result.outcome === 'not-printed' ? 'failed' : 'unsure';
  }
}
