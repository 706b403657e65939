// The §4.1 record codec lives in src/emv/table-records (shared with the virtual pinpad's TLR).
export {
  decodeRecord,
  decodeRecords,
  encodeRecord,
  padField,
  capkChecksum,
  type TableRecord,
} from '../../emv/index.js';
export { AID_FIELDS, CAPK_FIELDS } from '../../emv/index.js';
