import { createRequire } from 'node:module';
import type * as PngjsModule from 'pngjs';
import { OmniposError } from '../../core/index.js';

type Decode = (
  data: Uint8ClampedArray,
  width: number,
  height: number,
  options?: { inversionAttempts?: 'dontInvert' | 'onlyInvert' | 'attemptBoth' | 'invertFirst' },
) => { data: string } | null;
// jsqr and pngjs load at the first image decoded, not when omnipos starts (fast start). jsqr is a
// CommonJS bundle whose export is the function (or, bundled, its `default`).
const load = createRequire(import.meta.url);
const jsQR = (): Decode => {
  const mod = load('jsqr') as Decode | { default: Decode };
  return typeof mod === 'function' ? mod : mod.default;
};

/** A host's image larger than this is not a QR code we show (a 300×300 RGBA PNG is ~20 KB). */
const MAX_IMAGE_BYTES = 2_000_000;
const MAX_SIDE = 4096;

/**
 * The text of the QR code in a PNG image, as the e-commerce host returns a QR code sale
 * (`QrCodeBase64Image`, base64 PNG, with no text field: e-commerce page, "Gerando um QR Code via
 * API", lines 2548 and 2582). Decoded with pngjs (any PNG: palette, grey, 16-bit, interlaced) and
 * jsQR; the terminal shows that same text on the pinpad and prints it. Throws ACQUIRER_BAD_RESPONSE
 * when the image is not a PNG or holds no readable code.
 */
export function qrTextFromPng(base64: string): string {
  const bytes = Buffer.from(base64.replace(/^data:image\/png;base64,/, '').replace(/\s+/g, ''), 'base64');
  if (bytes.length === 0 || bytes.length > MAX_IMAGE_BYTES) throw unreadable(`the image is ${bytes.length} bytes`);
  let png: { width: number; height: number; data: Buffer };
  try {
    png = (load('pngjs') as typeof PngjsModule).PNG.sync.read(bytes);
  } catch (e) {
    throw unreadable(`not a PNG image (${(e as Error).message})`);
  }
  if (png.width > MAX_SIDE || png.height > MAX_SIDE) throw unreadable(`a ${png.width}×${png.height} image`);
  const rgba = new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.byteLength);
  const code = jsQR()(rgba, png.width, png.height, { inversionAttempts: 'attemptBoth' });
  if (!code || code.data === '') throw unreadable('no QR code could be read in the image');
  return code.data;
}

function unreadable(why: string): OmniposError {
  return new OmniposError('ACQUIRER_BAD_RESPONSE', `the host's QR code image: ${why}`, {
    reason: why,
    outcomeUnknown: false,
  });
}
