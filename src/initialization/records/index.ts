export { decodeRecord, decodeRecords, encodeRecord, padField, capkChecksum, type TableRecord, type RecordInput } from './codec.js';
export { AID_FIELDS, CAPK_FIELDS, REVOKED_FIELDS, HEADER, AID_LENGTHS, type FieldLayout, type RecordKind } from './layouts.js';
