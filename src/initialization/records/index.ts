// The §4.1 record codec lives in src/emv/table-records (shared with the virtual pinpad's TLR).
export {
  decodeRecord,
  decodeRecords,
  encodeRecord,
  padField,
  capkChecksum,
  type TableRecord,
  type RecordInput,
} from '../../emv/index.js';
export {
  AID_FIELDS,
  CAPK_FIELDS,
  REVOKED_FIELDS,
  HEADER,
  AID_LENGTHS,
  type FieldLayout,
  type RecordKind,
} from '../../emv/index.js';
