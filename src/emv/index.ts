/** BER-TLV codec, the EMV tag dictionary and the masking dump: pure, no I/O. */
export {
  decodeTlv,
  encodeTlv,
  findTlv,
  isConstructedTag,
  tagBytes,
  MAX_DEPTH,
  MAX_LENGTH_BYTES,
  MAX_TAG_BYTES,
} from './ber-tlv.js';
export type { TlvInput, TlvObject } from './ber-tlv.js';
export { EMV_TAGS, MASKED_TAGS, tagInfo, type TagFormat, type TagInfo } from './tags.js';
export { dumpTlv, maskPanDigits, shownValue, tlvToJson, type TlvJson } from './dump.js';
export { fromHex, toHex } from './hex.js';
export * from './table-records/index.js';
