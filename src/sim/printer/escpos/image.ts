import { createRequire } from 'node:module';
import type QRCode from 'qrcode';
import { CODE_PAGES, type CodePageId } from '../../../../tables/printers/index.js';

/** A one-bit image as GS v 0 lays it out: rows of `bytesPerRow` bytes, most significant bit first, 1 = black. */
export interface SimBitmap {
  readonly width: number;
  readonly height: number;
  readonly bytesPerRow: number;
  readonly data: Uint8Array;
}

/** Error correction levels of GS ( k function 169 (n 48-51). */
export const QR_LEVELS = { 48: 'L', 49: 'M', 50: 'Q', 51: 'H' } as const;
export type QrLevel = (typeof QR_LEVELS)[keyof typeof QR_LEVELS];

const qrcode = (): typeof QRCode => createRequire(import.meta.url)('qrcode') as typeof QRCode;

/**
 * The symbol GS ( k function 181 prints from the data stored by function 180: `size` dots a module
 * (function 167), a 4-module quiet zone, shrunk to fit `maxWidth` dots as a printer narrows it.
 */
export function qrImage(data: string, size: number, level: QrLevel, maxWidth: number): SimBitmap {
  const m = qrcode().create(data, { errorCorrectionLevel: level }).modules;
  const modules = m.size + 8;
  const scale = Math.max(1, Math.min(size, Math.floor(maxWidth / modules)));
  const side = modules * scale;
  const bytesPerRow = Math.ceil(side / 8);
  const out = new Uint8Array(bytesPerRow * side);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const mx = Math.floor(x / scale) - 4;
      const my = Math.floor(y / scale) - 4;
      if (mx >= 0 && my >= 0 && mx < m.size && my < m.size && m.data[my * m.size + mx] === 1)
        out[y * bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  return { width: side, height: side, bytesPerRow, data: out };
}

/** Printed bytes (20h-FFh) as the characters of a code page (ESC t n): what the paper shows. */
export function codePageText(bytes: Uint8Array, cp: CodePageId): string {
  const high = [...CODE_PAGES[cp].high];
  let s = '';
  for (const b of bytes) s += b >= 0x80 ? high[b - 0x80]! : String.fromCharCode(b);
  return s;
}
