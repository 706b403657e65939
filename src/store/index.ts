export { openDatabase, type Db, type OpenOptions } from './open.js';
export type { Migration } from './migration.js';
export { MIGRATIONS } from './migrations.js';
export { MerchantOrderIds, type OrderIdOptions } from './order-ids.js';
export { nextNsu, readCounter, writeCounter } from './counters.js';
export { Journal, type JournalEntry, type JournalKind, type NewEntry } from './journal.js';
export { EventLog, type LoggedEvent } from './event-log.js';
export { Outbox, type OutboxTask, type NewTask } from './outbox.js';
export { assertNoCardData } from './no-card-data.js';

import path from 'node:path';
import type { Logger } from '../core/log/index.js';
import { MIGRATIONS } from './migrations.js';
import { openDatabase, type Db } from './open.js';

/** The terminal's database: `omnipos.db` in the state directory, schema brought up to date. */
export function openTerminalDatabase(stateDir: string, log?: Logger): Db {
  return openDatabase({ file: path.join(stateDir, 'omnipos.db'), migrations: MIGRATIONS, ...(log ? { log } : {}) });
}
export { ensureApiToken, ensureTokenFile } from './api-token.js';
