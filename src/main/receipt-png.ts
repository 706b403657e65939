import { encodeDocument } from '../../drivers/printer/index.js';
import { findPrinterModel } from '../../tables/printers/index.js';
import { OmniposError } from '../core/index.js';
import type { ReceiptColumns, ReceiptDocument } from '../receipt/index.js';
import { VirtualPrinter } from '../sim/printer/index.js';

/** The virtual printer model of each receipt width, for drawing a receipt as it would print. */
const MODEL_FOR_COLUMNS: Readonly<Record<ReceiptColumns, string>> = {
  32: 'virtual-58',
  42: 'epson-tm-t88v',
  48: 'virtual-80',
};

/**
 * A receipt as a PNG: its ESC/POS bytes (the same encoder the printer gets) fed to a fresh
 * virtual printer of that width, and the paper it cut off drawn dot for dot.
 */
export function receiptPng(doc: ReceiptDocument, columns: ReceiptColumns): Uint8Array {
  const model = findPrinterModel(MODEL_FOR_COLUMNS[columns]);
  if (!model)
    throw new OmniposError(
      'CONFIG_INVALID',
      `printer model ${MODEL_FOR_COLUMNS[columns]} is missing from tables/printers`,
    );
  const paper = new VirtualPrinter({ model });
  paper.write(encodeDocument(doc, model));
  return paper.png(paper.lastReceipt ?? paper.uncut);
}
