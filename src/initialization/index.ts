/**
 * Initialization tables: validation, the BIN index, the selection rules, versioned storage.
 * The engine's entry points are re-exported here.
 */
export { parseInitialization } from './schema/parse.js';
export * from './schema/flags.js';
export type {
  AcquirerFlags,
  EmvEntry,
  Issuer,
  MerchantInfo,
  Parameters,
  Product,
  RawInitialization,
} from './schema/tables.js';
export { binFlagMask, binFlagsObject, binHas, type BinRow, type InitializationTables } from './model.js';
export { BinIndex, linearLookup, groupRanges, type BinGroup, type BinRangeRow } from './bins/bin-index.js';
export { normaliseHigh, normaliseLow, BIN_WIDTH } from './bins/normalise.js';
export * from './records/index.js';
export { InitializationStore, type InstallOptions, type InstallResult, type VersionInfo } from './storage/store.js';
export { pinpadTableVersion, isNewerVersion, assertOperational } from './version.js';
export { TableSet, paymentTypeOf, type PaymentType } from './table-set.js';
export * from './rules/index.js';
export { planPinpadLoad, tlrBlocks, TLR_MAX, type PinpadLoadPlan } from './pinpad-load.js';
export {
  initialize,
  initializationDue,
  type TablesSource,
  type PinpadTables,
  type InitStep,
  type InitializeDeps,
  type InitializeResult,
} from './initialize.js';
