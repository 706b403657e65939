/** QR as a PNG for screens and downloads, drawn by the `qrcode` package from the same matrix. */
import QRCode from 'qrcode';
import { OmniposError } from '../core/errors/index.js';
import type { QrRenderOptions } from './render.js';

/** A PNG of the code, `scale` pixels a module, with a quiet zone of `margin` modules (default 4). */
export async function renderQrPng(text: string, opts: QrRenderOptions & { scale?: number } = {}): Promise<Uint8Array> {
  if (text.length === 0) throw new OmniposError('QR_INVALID', 'qr render: the text is empty', {});
  try {
    const buf = await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: opts.ecc ?? 'M', margin: opts.margin ?? 4, scale: opts.scale ?? 4 });
    return new Uint8Array(buf);
  } catch (e) {
    throw new OmniposError('QR_INVALID', `qr render: ${(e as Error).message}`, { length: text.length });
  }
}
