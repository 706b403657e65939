import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite binding for the running Node, one API: better-sqlite3 12 on Node 20 (built for the
 * machine's Node by `npm ci`; 13 crashes there), better-sqlite3 13 (`better-sqlite3-napi`, Node-API,
 * prebuilt for linux x64 and arm64 inside its npm package) on Node 22 and 24 (12 aborts on 24 at a
 * statement's destructor, and its build is for one Node ABI). docs/dependencies.md, "Supported runtimes".
 */
const require = createRequire(import.meta.url);

export function sqlitePackageFor(nodeVersion: string): 'better-sqlite3' | 'better-sqlite3-napi' {
  return Number(nodeVersion.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';
}

export const SQLITE_PACKAGE = sqlitePackageFor(process.versions.node);

const Database = require(SQLITE_PACKAGE) as typeof BetterSqlite3;
// eslint-disable-next-line @typescript-eslint/no-namespace -- the binding's types under the same name as its constructor, as better-sqlite3 declares them
declare namespace Database {
  export type Database = BetterSqlite3.Database;
  export type Options = BetterSqlite3.Options;
}
export default Database;
