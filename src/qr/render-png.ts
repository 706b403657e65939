/** QR as a PNG for screens and downloads, drawn by the `qrcode` package from the same matrix. */
import { createRequire } from 'node:module';
import type QRCode from 'qrcode';
import { OmniposError } from '../core/index.js';
import { qrModules, type QrRenderOptions } from './render.js';

/** qrcode loads at the first code drawn, not when omnipos starts (fast start). */
const qrcode = (): typeof QRCode => createRequire(import.meta.url)('qrcode') as typeof QRCode;

/**
 * A PNG of the code, `scale` pixels a module, with a quiet zone of `margin` modules (default 4).
 * `maxWidth` (pixels) shrinks the scale to fit a small display, such as the pinpad's (its
 * multimedia commands load PNG images); below one pixel a module it refuses with QR_INVALID.
 */
export async function renderQrPng(
  text: string,
  opts: QrRenderOptions & { scale?: number; maxWidth?: number } = {},
): Promise<Uint8Array> {
  if (text.length === 0) throw new OmniposError('QR_INVALID', 'qr render: the text is empty', {});
  const margin = opts.margin ?? 4;
  let scale = opts.scale ?? 4;
  if (opts.maxWidth !== undefined) {
    const modules = qrModules(text, opts.ecc).size + 2 * margin;
    scale = Math.min(scale, Math.floor(opts.maxWidth / modules));
    if (scale < 1)
      throw new OmniposError('QR_INVALID', `qr render: ${modules} modules do not fit ${opts.maxWidth} pixels`, {
        modules,
        maxWidth: opts.maxWidth,
      });
  }
  try {
    const buf = await qrcode().toBuffer(text, { type: 'png', errorCorrectionLevel: opts.ecc ?? 'M', margin, scale });
    return new Uint8Array(buf);
  } catch (e) {
    throw new OmniposError('QR_INVALID', `qr render: ${(e as Error).message}`, { length: text.length });
  }
}
