/**
 * Initialization tables: validation, the BIN index, the selection rules, versioned storage.
 * The engine's entry points are re-exported here.
 */
export { parseInitialization } from './schema/parse.js';
export * from './schema/flags.js';
export { binFlagsObject, binHas, type InitializationTables } from './model.js';
export { BinIndex, linearLookup, type BinRangeRow } from './bins/bin-index.js';
export { normaliseHigh, normaliseLow } from './bins/normalise.js';
export * from './records/index.js';
export { InitializationStore } from './storage/store.js';
export { pinpadTableVersion, isNewerVersion, assertOperational } from './version.js';
export { TableSet, paymentTypeOf, type PaymentType } from './table-set.js';
export * from './rules/index.js';
export { planPinpadLoad, tlrBlocks, type PinpadLoadPlan } from './pinpad-load.js';
export { initialize, initializationDue, type TablesSource, type PinpadTables, type InitStep } from './initialize.js';
