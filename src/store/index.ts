export { openDatabase, type Db } from './open.js';
export type { Migration } from './migration.js';
export { MIGRATIONS } from './migrations.js';
export { MerchantOrderIds } from './order-ids.js';
export { nextNsu, readCounter, writeCounter } from './counters.js';
export { Journal, type JournalEntry, type JournalKind } from './journal.js';
export { PaymentOwnerRows } from './payment-owners.js';
export { EVENTS_PER_SYNC, EventLog } from './event-log.js';
export { Outbox, type OutboxTask, type NewTask } from './outbox.js';
export { assertNoCardData } from './no-card-data.js';
export { DAMAGE_MARKER, readDamage, databaseProblem, type DamageRecord } from './damage.js';
export { lockStateDir } from './lock.js';
export { WriteHealth, onWriteFailure, storeWriteFailure } from './write-health.js';

import path from 'node:path';
import type { Logger } from '../core/index.js';
import { MIGRATIONS } from './migrations.js';
import { openDatabase, type Db } from './open.js';
import { damagedError, databaseProblem, readDamage, setAside } from './damage.js';

/**
 * The terminal's database: `omnipos.db` in the state directory, schema brought up to date.
 * Refused (STORE_DAMAGED) while a damaged database is kept aside there: no tool creates a fresh,
 * empty journal in its place.
 */
export function openTerminalDatabase(stateDir: string, log?: Logger): Db {
  const damage = readDamage(stateDir);
  if (damage) throw damagedError(stateDir, damage);
  return openDatabase({ file: path.join(stateDir, 'omnipos.db'), migrations: MIGRATIONS, ...(log ? { log } : {}) });
}

/**
 * What the daemon opens: the database checked first (header, WAL header, quick_check, read-only).
 * A damaged file is never written over: it is moved aside with its WAL, the marker is left, and
 * STORE_DAMAGED is raised (every later start refuses the same way until a technician acts).
 */
export function openCheckedTerminalDatabase(stateDir: string, log: Logger, now: () => Date = () => new Date()): Db {
  const existing = readDamage(stateDir);
  if (existing) throw damagedError(stateDir, existing);
  const file = path.join(stateDir, 'omnipos.db');
  const problem = databaseProblem(file);
  if (problem) {
    const record = setAside(file, problem, now());
    log.fatal(
      { alarm: 'STORE_DAMAGED', file, reason: problem, keptIn: record.keptIn },
      'the database is damaged: kept aside, nothing is sold (omnipos diag says what to do)',
    );
    throw damagedError(stateDir, record);
  }
  return openTerminalDatabase(stateDir, log);
}
export { ensureApiToken, ensureTokenFile } from './api-token.js';
export { EXPIRY_SEALED, ExpiryKey, ensureExpiryKey, sealJournalExpiries } from './expiry-key.js';
export { SavedCards } from './saved-cards.js';
export { createSecretFileOnce, writeSecretTemp } from './secret-file.js';
export { salvageOutbox } from './salvage.js';
export { statement } from './statements.js';
export { writeDayFile, readDayFile, listDayFiles, deleteDayFile } from './day-files.js';
export {
  AUTO_VACUUM,
  WAL_LIMIT_BYTES,
  VACUUM_STEP_PAGES,
  convertToIncremental,
  giveBackSpace,
  storeSpace,
  type StoreSpace,
} from './space.js';
export { DiskWatch, type DiskView } from './disk-watch.js';
