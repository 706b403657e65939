// A child process for the power-loss tests: it writes to a database and is SIGKILLed by the test
// at a point it announces on stdout. Not a test file itself.
import { MIGRATIONS, Outbox, openDatabase, type Migration } from '../../../src/store/index.js';

const [mode, file] = process.argv.slice(2);
const say = (line: string): void => void process.stdout.write(`${line}\n`);

function tasks(outbox: Outbox, from: number, count: number): void {
  for (let i = from; i < from + count; i++) {
    outbox.enqueue({
      operation: 'confirm',
      idempotencyKey: `k${i}`,
      payload: { merchantOrderId: String(100000 + i), pad: 'x'.repeat(400) },
      at: new Date(0),
    });
  }
}

if (mode === 'wal') {
  // Committed rows left in the WAL only (no checkpoint), then wait to be killed.
  const db = openDatabase({ file: file!, migrations: MIGRATIONS });
  db.pragma('wal_autocheckpoint = 0');
  const outbox = new Outbox(db);
  db.transaction(() => tasks(outbox, 0, 50))();
  say('committed 50');
  setInterval(() => undefined, 1 << 30);
} else if (mode === 'checkpoint') {
  const db = openDatabase({ file: file!, migrations: MIGRATIONS });
  db.pragma('wal_autocheckpoint = 0');
  const outbox = new Outbox(db);
  for (let t = 0; t < 100; t++) db.transaction(() => tasks(outbox, t * 100, 100))();
  say('committed 10000');
  say('checkpointing');
  // Many passes so that a kill lands inside one (each pass copies the WAL's frames into the file).
  for (let i = 0; i < 20; i++) {
    db.transaction(() => tasks(outbox, 10000 + i * 100, 100))();
    db.pragma('wal_checkpoint(RESTART)');
  }
  say('checkpointed');
  setInterval(() => undefined, 1 << 30);
} else if (mode === 'migrate') {
  // Version 1 committed with one row; then a migration to version 2 that writes a great deal.
  const v1: Migration = {
    version: 1,
    name: 'first',
    up: 'CREATE TABLE t (x INTEGER NOT NULL); INSERT INTO t VALUES (1);',
  };
  openDatabase({ file: file!, migrations: [v1] }).close();
  say('version 1');
  const v2: Migration = {
    version: 2,
    name: 'slow',
    up: 'CREATE TABLE big (x INTEGER, pad TEXT); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000000) INSERT INTO big SELECT x, hex(randomblob(64)) FROM c;',
  };
  say('migrating');
  openDatabase({ file: file!, migrations: [v1, v2] }).close();
  say('migrated');
  setInterval(() => undefined, 1 << 30);
}
