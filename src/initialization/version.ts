import { OmniposError } from '../core/index.js';
import type { InitializationTables } from './model.js';

/**
 * The pinpad's table version (TLI/GIX, A10) for an `InitializationVersion` (up to 13 digits):
 * its last 10 digits, left-padded with zeros (docs/decisions.md, "Initialization tables").
 * 1763769600001 → "3769600001".
 */
export function pinpadTableVersion(version: string | number): string {
  const v = String(version);
  if (!/^\d{1,13}$/.test(v))
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `InitializationVersion: expected up to 13 digits, got ${JSON.stringify(v)}`,
      {},
    );
  return v.padStart(10, '0').slice(-10);
}

/** Whether a sale's answer names a newer `InitializationVersion` than the one in force (then initialize again). */
export function isNewerVersion(answered: string | number | undefined | null, current: string | undefined): boolean {
  if (answered === undefined || answered === null || answered === '') return false;
  const a = String(answered);
  if (!/^\d{1,13}$/.test(a)) return false;
  if (current === undefined) return true;
  return BigInt(a) > BigInt(current);
}

/**
 * `Acquirer.LockAppFunctionsExceptInitialization` and the absence of tables: nothing but
 * initialization runs until the terminal holds tables the acquirer has not locked. Throws
 * INIT_NOT_INITIALIZED.
 */
export function assertOperational(tables: InitializationTables | undefined): asserts tables is InitializationTables {
  if (!tables)
    throw new OmniposError('INIT_NOT_INITIALIZED', 'the terminal has no initialization tables: run omnipos init', {});
  if (tables.acquirer.LockAppFunctionsExceptInitialization) {
    throw new OmniposError(
      'INIT_NOT_INITIALIZED',
      `the acquirer locked every function but initialization (version ${tables.version}): run omnipos init`,
      { version: tables.version },
    );
  }
}
