import { createRequire } from 'node:module';
import type QRCode from 'qrcode';
import { PrinterError } from './errors.js';
import type { QrEcc } from './layouts.js';

/** qrcode loads at the first code drawn, not when omnipos starts (fast start). */
const qrcode = (): typeof QRCode => createRequire(import.meta.url)('qrcode') as typeof QRCode;

/**
 * A one-bit image in GS v 0's own layout: rows of `bytesPerRow` bytes, most significant bit
 * first, 1 = a black dot. `width` is in dots (the last byte of a row may be padded with zeros).
 */
export interface Bitmap {
  readonly width: number;
  readonly height: number;
  readonly bytesPerRow: number;
  readonly data: Uint8Array;
}

/** An empty (white) bitmap. */
export function blankBitmap(width: number, height: number): Bitmap {
  if (
    !Number.isInteger(width) ||
    !Number.isInteger(height) ||
    width < 1 ||
    height < 1 ||
    width > 65535 * 8 ||
    height > 65535
  ) {
    throw new PrinterError('PRINTER_INVALID_ARGUMENT', `bitmap: ${width}x${height} is not a printable size`, {
      width,
      height,
    });
  }
  const bytesPerRow = Math.ceil(width / 8);
  return { width, height, bytesPerRow, data: new Uint8Array(bytesPerRow * height) };
}

export function setDot(b: Bitmap, x: number, y: number): void {
  b.data[y * b.bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
}

/** Builds a bitmap from a predicate (true = black). */
export function bitmapFrom(width: number, height: number, black: (x: number, y: number) => boolean): Bitmap {
  const b = blankBitmap(width, height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (black(x, y)) setDot(b, x, y);
  return b;
}

/** The QR matrix of `data` (byte mode as qrcode chooses): `size` modules a side, `dark(x, y)`. */
export interface QrMatrix {
  readonly size: number;
  readonly version: number;
  dark(x: number, y: number): boolean;
}

/** Encodes `data` as a QR matrix with the `qrcode` package. */
export function qrMatrix(data: string, ecc: QrEcc = 'M'): QrMatrix {
  if (data.length === 0) throw new PrinterError('PRINTER_INVALID_ARGUMENT', 'qr: the data is empty', {});
  let code: QRCode.QRCode;
  try {
    code = qrcode().create(data, { errorCorrectionLevel: ecc });
  } catch (e) {
    throw new PrinterError(
      'PRINTER_INVALID_ARGUMENT',
      `qr: ${(e as Error).message}`,
      { length: data.length },
      { cause: e },
    );
  }
  const m = code.modules;
  return {
    size: m.size,
    version: code.version,
    dark: (x, y) => x >= 0 && y >= 0 && x < m.size && y < m.size && m.data[y * m.size + x] === 1,
  };
}

/**
 * A QR code as a raster for printers without GS ( k: each module `scale` dots, with a quiet zone
 * of `margin` modules. The scale shrinks to fit `maxWidth` dots; below one dot per module it
 * refuses (the data is too long for the paper).
 */
export function qrBitmap(
  data: string,
  opts: { scale?: number; margin?: number; ecc?: QrEcc; maxWidth?: number } = {},
): Bitmap {
  const m = qrMatrix(data, opts.ecc ?? 'M');
  const margin = opts.margin ?? 4;
  const modules = m.size + 2 * margin;
  let scale = opts.scale ?? 6;
  if (opts.maxWidth !== undefined) scale = Math.min(scale, Math.floor(opts.maxWidth / modules));
  if (scale < 1)
    throw new PrinterError('PRINTER_INVALID_ARGUMENT', `qr: ${modules} modules do not fit ${opts.maxWidth} dots`, {
      modules,
      maxWidth: opts.maxWidth,
    });
  const side = modules * scale;
  return bitmapFrom(side, side, (x, y) => m.dark(Math.floor(x / scale) - margin, Math.floor(y / scale) - margin));
}
