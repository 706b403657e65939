/**
 * The ABECS §4.1 table records (AID, CA public key, revoked certificate) as data walked by one codec.
 * Pure, shared by src/initialization (the tables the host sends, the pinpad load) and src/sim (the
 * virtual pinpad's TLR). Moved here from src/initialization/records so both sides use the same codec.
 */
export { decodeRecord, decodeRecords, encodeRecord, padField, capkChecksum, type TableRecord } from './codec.js';
export { AID_FIELDS, CAPK_FIELDS } from './layouts.js';
