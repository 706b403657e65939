import type { Logger } from '../../src/core/log/index.js';
import { openTerminalDatabase, type Db } from '../../src/store/index.js';
import { useTempDirs } from './temp-dir.js';

/**
 * The terminal's store (every migration, as the daemon has it) on a SQLite file in a new temporary state
 * directory per call; the directories go after each test (call at the top of a file or a describe).
 */
export function useTempStores(prefix = 'omnipos-store-'): (log?: Logger) => Db {
  const tempDir = useTempDirs();
  return (log) => openTerminalDatabase(tempDir(prefix), log);
}
