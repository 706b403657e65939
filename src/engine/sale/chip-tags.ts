import { CHIP_UNDO_REQUEST_TAGS } from '../../core/index.js';
import { decodeTlv, toHex } from '../../emv/index.js';

/** The chip's request tags an undo may carry before the card has finished (FCX): src/core/chip-tags.ts. */
export const UNDO_REQUEST_TAGS: ReadonlySet<string> = CHIP_UNDO_REQUEST_TAGS;

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
