import type { Logger } from '../../src/core/log/index.js';
import { ExpiryKey, openTerminalDatabase, type Db, type Journal } from '../../src/store/index.js';
import { useTempDirs } from './temp-dir.js';

/**
 * The terminal's store (every migration, as the daemon has it) on a SQLite file in a new temporary state
 * directory per call; the directories go after each test (call at the top of a file or a describe).
 */
export function useTempStores(prefix = 'omnipos-store-'): (log?: Logger) => Db {
  const tempDir = useTempDirs();
  return (log) => openTerminalDatabase(tempDir(prefix), log);
}

/**
 * A finished card sale's row, for events published by hand: every event of the stream names a payment
 * (or void) of the journal, whose `kind` the hub stamps on it (the contract's Event is told apart by it).
 */
export function declinedSaleRow(journal: Journal, at = new Date()): number {
  const merchantOrderId = `h${String(at.getTime()).slice(-10)}${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`;
  return journal.open({ kind: 'sale', merchantOrderId, state: 'declined', amount: 100, input: 'test', at }).id;
}

/** A fixed expiry key for engines built by hand (the daemon's is `<stateDir>/expiry-key`). */
export const TEST_EXPIRY_KEY = new ExpiryKey(Buffer.alloc(32, 7));
