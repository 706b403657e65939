import { decodeTlv, findTlv } from '../emv/index.js';

/**
 * Tags a chip confirmation must carry (the manual lists 95, 9F10, 9F26, 9F27, 9F37 and 9F0B;
 * docs/acquirer.md, "Confirmations and undos": 9F0B is rarely present and is not required).
 */
export const CONFIRM_TAGS = ['95', '9F10', '9F26', '9F27', '9F37'] as const;

/** Problems of an EMV data field: not BER-TLV, or missing one of `required`. */
export function missingTags(path: string, hex: string, required: readonly string[]): string[] {
  let objects;
  try {
    objects = decodeTlv(hex);
  } catch (e) {
    return [`${path}: not valid BER-TLV (${(e as Error).message})`];
  }
  const absent = required.filter((t) => !findTlv(objects, t));
  return absent.length > 0 ? [`${path}: missing tag${absent.length > 1 ? 's' : ''} ${absent.join(', ')}`] : [];
}
