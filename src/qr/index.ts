/** EMV merchant-presented QR: CRC16, the generic TLV, Pix, and the `br.com.padraoq` models. Pure, no I/O. */
import { parseMpm } from './mpm.js';
import { interpretPix, looksLikePix, type PixCode } from './pix.js';
import { interpretPadraoq } from './padraoq/parse.js';
import type { ParsedPadraoq } from './padraoq/types.js';

export { crc16Hex } from './crc16.js';
export { isAns, toAns } from './ans.js';
export { encodeMpm, isTemplateId, mpmChild, parseMpm, type MpmInput, type MpmObject } from './mpm.js';
export { parsePix, type PixCode } from './pix.js';
export { buildPix, type PixInput } from './pix-build.js';
export { buildPadraoq, normalizeAmount } from './padraoq/build.js';
export { parsePadraoq } from './padraoq/parse.js';
export * from './padraoq/layouts.js';
export type * from './padraoq/types.js';

/** Either kind of code this terminal reads. */
export type ParsedQr = ParsedPadraoq | { readonly model: 'pix'; readonly pix: PixCode };

/** Parses a padraoq code (any model) or a Pix BR Code, by what 26.00 says. QR_INVALID otherwise. */
export function parseQr(text: string): ParsedQr {
  const objects = parseMpm(text);
  if (looksLikePix(objects)) return { model: 'pix', pix: interpretPix(objects) };
  return interpretPadraoq(objects);
}
export { renderQrText, renderQrSvg } from './render.js';
export { renderQrPng } from './render-png.js';
