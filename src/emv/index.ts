/** BER-TLV codec, the EMV tag dictionary and the masking dump: pure, no I/O. */
export { decodeTlv, encodeTlv, findTlv, tagBytes } from './ber-tlv.js';
export type { TlvInput, TlvObject } from './ber-tlv.js';
export { MASKED_TAGS } from './tags.js';
export { dumpTlv, maskPanDigits, tlvToJson, type TlvJson } from './dump.js';
export { toHex } from './hex.js';
export * from './table-records/index.js';
