/**
 * QR rendering (the matrix comes from the `qrcode` package): text blocks for a terminal, SVG for a
 * screen, and a one-bit bitmap in the printer's raster layout (GS v 0) that also feeds image
 * displays. The printer's own QR command and its raster bytes are drivers/printer's (a codec does
 * not write device bytes); PNG is in render-png.ts. Errors: QR_INVALID.
 */
import { createRequire } from 'node:module';
import type QRCode from 'qrcode';
import { OmniposError } from '../core/index.js';

/** qrcode loads at the first code drawn, not when omnipos starts (fast start). */
const qrcode = (): typeof QRCode => createRequire(import.meta.url)('qrcode') as typeof QRCode;

export type QrEcc = 'L' | 'M' | 'Q' | 'H';

/** The module matrix: `size` modules a side, `dark(x, y)` (outside the matrix is light). */
export interface QrModules {
  readonly size: number;
  readonly version: number;
  dark(x: number, y: number): boolean;
}

/** Encodes `text` (UTF-8, byte mode when needed) at error correction `ecc` (default M). */
export function qrModules(text: string, ecc: QrEcc = 'M'): QrModules {
  if (text.length === 0) throw new OmniposError('QR_INVALID', 'qr render: the text is empty', {});
  let code: QRCode.QRCode;
  try {
    code = qrcode().create(text, { errorCorrectionLevel: ecc });
  } catch (e) {
    throw new OmniposError('QR_INVALID', `qr render: ${(e as Error).message}`, { length: text.length });
  }
  const m = code.modules;
  return {
    size: m.size,
    version: code.version,
    dark: (x, y) => x >= 0 && y >= 0 && x < m.size && y < m.size && m.data[y * m.size + x] === 1,
  };
}

export interface QrRenderOptions {
  ecc?: QrEcc;
  /** Quiet zone in modules (default 4, the minimum the QR standard asks). */
  margin?: number;
}

/**
 * The code as text for a terminal: two module rows per line with the half blocks `▀ ▄ █` and
 * spaces. `invert` for light-on-dark terminals (the default draws dark modules as ink).
 */
export function renderQrText(text: string, opts: QrRenderOptions & { invert?: boolean } = {}): string {
  const m = qrModules(text, opts.ecc);
  const margin = opts.margin ?? 4;
  const n = m.size + 2 * margin;
  const ink = (x: number, y: number): boolean => m.dark(x - margin, y - margin) !== (opts.invert ?? false);
  const lines: string[] = [];
  for (let y = 0; y < n; y += 2) {
    let line = '';
    for (let x = 0; x < n; x++) {
      const top = ink(x, y);
      const bottom = y + 1 < n ? ink(x, y + 1) : opts.invert === true;
      line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
    }
    lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

/** The code as a standalone SVG: one path of unit squares, `scale` pixels a module. */
export function renderQrSvg(text: string, opts: QrRenderOptions & { scale?: number } = {}): string {
  const m = qrModules(text, opts.ecc);
  const margin = opts.margin ?? 4;
  const n = m.size + 2 * margin;
  const px = n * (opts.scale ?? 4);
  let d = '';
  for (let y = 0; y < m.size; y++)
    for (let x = 0; x < m.size; x++) if (m.dark(x, y)) d += `M${x + margin} ${y + margin}h1v1h-1z`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n} ${n}" width="${px}" height="${px}" shape-rendering="crispEdges"><rect width="${n}" height="${n}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`;
}

/** A one-bit image: rows of `bytesPerRow` bytes, most significant bit first, 1 = dark (the GS v 0 layout). */
export interface QrBitmap {
  readonly width: number;
  readonly height: number;
  readonly bytesPerRow: number;
  readonly data: Uint8Array;
}

/** The code as a one-bit bitmap, `scale` dots a module, shrunk to fit `maxWidth` dots when given. */
export function renderQrBitmap(
  text: string,
  opts: QrRenderOptions & { scale?: number; maxWidth?: number } = {},
): QrBitmap {
  const m = qrModules(text, opts.ecc);
  const margin = opts.margin ?? 4;
  const n = m.size + 2 * margin;
  let scale = opts.scale ?? 4;
  if (opts.maxWidth !== undefined) scale = Math.min(scale, Math.floor(opts.maxWidth / n));
  if (!Number.isInteger(scale) || scale < 1)
    throw new OmniposError('QR_INVALID', `qr render: ${n} modules do not fit ${opts.maxWidth} dots`, { modules: n });
  const width = n * scale;
  const bytesPerRow = Math.ceil(width / 8);
  const data = new Uint8Array(bytesPerRow * width);
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < width; x++) {
      if (m.dark(Math.floor(x / scale) - margin, Math.floor(y / scale) - margin))
        data[y * bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return { width, height: width, bytesPerRow, data };
}
