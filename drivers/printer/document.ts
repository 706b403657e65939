import type { PrinterModel } from '../../tables/printers/index.js';
import type { Bitmap } from './bitmap.js';
import { EscPosEncoder, type Align } from './encoder.js';
import type { QrEcc } from './layouts.js';

/**
 * A printer-neutral document: what src/receipt produces (its `ReceiptDocument` has this same
 * shape; src/ may not import drivers/, so the two are kept equal by a type test) and what
 * `encodeDocument` turns into one model's bytes.
 */
export type PrintOp =
  /** One line of text; the line feed is added. Widths count columns at normal size. */
  | {
      readonly op: 'text';
      readonly text: string;
      readonly align?: Align;
      readonly bold?: boolean;
      readonly underline?: boolean;
      readonly width?: 1 | 2;
      readonly height?: 1 | 2;
    }
  | { readonly op: 'feed'; readonly lines: number }
  | { readonly op: 'qr'; readonly data: string; readonly size?: number; readonly ecc?: QrEcc }
  | { readonly op: 'barcode'; readonly data: string; readonly symbology: 'code128' | 'ean13' }
  | { readonly op: 'image'; readonly bitmap: Bitmap }
  | { readonly op: 'cut'; readonly kind?: 'partial' | 'full' }
  | { readonly op: 'drawer' };

export type PrintDocument = readonly PrintOp[];

/** The bytes of a document for a model: ESC @ and the code page first, styles reset after each line. */
export function encodeDocument(doc: PrintDocument, model: PrinterModel): Uint8Array {
  const e = new EscPosEncoder(model).initialize();
  for (const op of doc) {
    switch (op.op) {
      case 'text': {
        const styled = op.bold || op.underline || (op.width ?? 1) > 1 || (op.height ?? 1) > 1;
        if (op.align && op.align !== 'left') e.align(op.align);
        if (op.bold) e.bold(true);
        if (op.underline) e.underline(1);
        if ((op.width ?? 1) > 1 || (op.height ?? 1) > 1) e.size(op.width ?? 1, op.height ?? 1);
        e.line(op.text);
        if (styled) {
          if (op.bold) e.bold(false);
          if (op.underline) e.underline(0);
          if ((op.width ?? 1) > 1 || (op.height ?? 1) > 1) e.size(1, 1);
        }
        if (op.align && op.align !== 'left') e.align('left');
        break;
      }
      case 'feed':
        e.feed(op.lines);
        break;
      case 'qr':
        e.align('center')
          .qr(op.data, { ...(op.size !== undefined ? { size: op.size } : {}), ...(op.ecc ? { ecc: op.ecc } : {}) })
          .align('left');
        break;
      case 'barcode':
        e.align('center').barcode(op.data, op.symbology).align('left');
        break;
      case 'image':
        e.align('center').image(op.bitmap).align('left');
        break;
      case 'cut':
        e.cut(op.kind ?? 'partial');
        break;
      case 'drawer':
        if (model.drawer) e.drawer();
        break;
    }
  }
  return e.encode();
}
