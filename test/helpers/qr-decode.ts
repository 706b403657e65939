import * as jsqrModule from 'jsqr';

type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
// jsqr is a CommonJS bundle: under Node's ESM interop its function is `default` (or `default.default`).
const mod = jsqrModule as unknown as { default: Decode | { default: Decode } };
const jsQR: Decode = typeof mod.default === 'function' ? mod.default : mod.default.default;

/** A one-bit image as GS v 0 lays it out (MSB first, 1 = black). */
export interface OneBitImage {
  readonly width: number;
  readonly height: number;
  readonly bytesPerRow: number;
  readonly data: Uint8Array;
}

/** Decodes a QR code in a one-bit image with jsQR (an independent decoder), or undefined. */
export function decodeQrBitmap(b: OneBitImage): string | undefined {
  const rgba = new Uint8ClampedArray(b.width * b.height * 4);
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      const black = ((b.data[y * b.bytesPerRow + (x >> 3)]! >> (7 - (x & 7))) & 1) === 1;
      const i = (y * b.width + x) * 4;
      rgba[i] = rgba[i + 1] = rgba[i + 2] = black ? 0 : 255;
      rgba[i + 3] = 255;
    }
  }
  return jsQR(rgba, b.width, b.height)?.data;
}

/** Decodes a QR code in an RGBA image (a PNG decoded by the test). */
export function decodeQrRgba(rgba: Uint8ClampedArray, width: number, height: number): string | undefined {
  return jsQR(rgba, width, height)?.data;
}
