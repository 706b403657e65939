import type { SimBitmap as Bitmap } from './escpos/image.js';

export type Align = 'left' | 'center' | 'right';

/** One printed row, as the virtual printer laid it on paper. */
export type PaperRow =
  | {
      readonly kind: 'text';
      readonly text: string;
      readonly align: Align;
      readonly width: number;
      readonly height: number;
      readonly bold: boolean;
      readonly underline: boolean;
    }
  | { readonly kind: 'image'; readonly bitmap: Bitmap; readonly align: Align; readonly qrData?: string }
  | { readonly kind: 'barcode'; readonly system: number; readonly data: string; readonly align: Align };

/** A piece of paper between two cuts (or the part still in the printer). */
export interface PrintedReceipt {
  readonly rows: readonly PaperRow[];
  /** How it left the printer: by the cutter, or still attached (`none`). */
  readonly cut: 'full' | 'partial' | 'none';
  /** What a person reads, one string per printed line (images and QR codes as a bracketed note). */
  readonly lines: readonly string[];
  /** `lines` joined with newlines. */
  readonly text: string;
  /** The images on it, QR codes included (with the data when the printer encoded it itself). */
  readonly images: readonly { readonly bitmap: Bitmap; readonly qrData?: string }[];
  readonly barcodes: readonly { readonly system: number; readonly data: string }[];
}

function place(text: string, width: number, align: Align, columns: number): string {
  const used = Math.min(columns, [...text].length * width);
  const free = columns - used;
  const left = align === 'left' ? 0 : align === 'center' ? Math.floor(free / 2) : free;
  return (' '.repeat(left) + text).replace(/\s+$/, '');
}

/** Lays rows out as text lines of `columns` characters (double-width text counts twice, shown once). */
export function renderRows(rows: readonly PaperRow[], columns: number): string[] {
  const out: string[] = [];
  for (const r of rows) {
    if (r.kind === 'text') {
      out.push(place(r.text, r.width, r.align, columns));
    } else if (r.kind === 'image') {
      out.push(
        place(
          r.qrData !== undefined ? '[QR Code]' : `[imagem ${r.bitmap.width}x${r.bitmap.height}]`,
          1,
          r.align,
          columns,
        ),
      );
    } else {
      out.push(place(`[código de barras]`, 1, r.align, columns));
      out.push(place(r.data, 1, r.align, columns));
    }
  }
  return out;
}

export function makeReceipt(rows: readonly PaperRow[], cut: PrintedReceipt['cut'], columns: number): PrintedReceipt {
  const lines = renderRows(rows, columns);
  return {
    rows,
    cut,
    lines,
    text: lines.join('\n'),
    images: rows.flatMap((r) =>
      r.kind === 'image' ? [{ bitmap: r.bitmap, ...(r.qrData !== undefined ? { qrData: r.qrData } : {}) }] : [],
    ),
    barcodes: rows.flatMap((r) => (r.kind === 'barcode' ? [{ system: r.system, data: r.data }] : [])),
  };
}
