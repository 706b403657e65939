import { decodeTlv, toHex } from '../../emv/index.js';

/**
 * The chip's request tags an undo may carry before the card has finished (FCX): the
 * transaction's own data (amounts, dates, TVR, IAD, cryptogram and its counters, terminal
 * data), never card data. A PAN (5A), track equivalents (57, 9F6B, 56), the cardholder's name
 * (5F20), the expiry (5F24) and discretionary data (9F1F, 9F20) are left out, so the set can be
 * journaled before the sale leaves (the store's guard accepts these tags as opaque hex).
 */
export const UNDO_REQUEST_TAGS: ReadonlySet<string> = new Set([
  '4F',
  '5F2A',
  '5F34',
  '82',
  '84',
  '95',
  '9A',
  '9B',
  '9C',
  '9F02',
  '9F03',
  '9F09',
  '9F10',
  '9F1A',
  '9F1E',
  '9F26',
  '9F27',
  '9F33',
  '9F34',
  '9F35',
  '9F36',
  '9F37',
  '9F41',
  '9F53',
]);

/**
 * The non-sensitive request tags of a chip read's EMV data (hex TLV after GOX), hex by tag, or
 * undefined when there are none or the data cannot be read (the undo then goes without).
 */
export function undoRequestTags(emvData: string | undefined): Record<string, string> | undefined {
  if (!emvData) return undefined;
  let tlvs;
  try {
    tlvs = decodeTlv(emvData);
  } catch {
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const t of tlvs) if (!t.children && UNDO_REQUEST_TAGS.has(t.tag)) out[t.tag] = toHex(t.value).toUpperCase();
  return Object.keys(out).length > 0 ? out : undefined;
}
