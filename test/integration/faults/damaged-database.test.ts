import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, openSync, readdirSync, readFileSync, statSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
import Database from '../../../src/store/sqlite.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MIGRATIONS,
  Outbox,
  databaseProblem,
  openDatabase,
  openTerminalDatabase,
  salvageOutbox,
  type Migration,
} from '../../../src/store/index.js';
import { walHeaderProblem } from '../../../src/store/damage.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { killAll, spawnCli, stderrLines } from '../../helpers/cli-process.js';

// Issue 23, "a damaged database": the daemon checks the file before it writes; a damaged file is
// kept aside untouched, nothing is sold, `omnipos diag` says what to do, `omnipos queue list` reads
// what can be read. Power loss at a checkpoint and in a migration: SIGKILL at those points.
const tempDir = useTempDirs();
afterEach(killAll);
const EXIT_MS = 45_000;

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A terminal database with `n` undelivered outbox tasks, closed (checkpointed into the file). */
function terminalDb(state: string, n: number): string {
  const db = openTerminalDatabase(state);
  const outbox = new Outbox(db);
  for (let i = 0; i < n; i++)
    outbox.enqueue({
      operation: 'undo',
      idempotencyKey: `undo-${i}`,
      payload: { merchantOrderId: `2633000${String(i).padStart(5, '0')}` },
      at: new Date('2026-11-25T12:00:00Z'),
    });
  db.close();
  return path.join(state, 'omnipos.db');
}

/** Overwrites the root page of an index (not the outbox table) with garbage: quick_check fails, the outbox still reads. */
function damageIndex(file: string, index = 'journal_state'): void {
  const db = new Database(file, { readonly: true });
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const root = (db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(index) as { rootpage: number })
    .rootpage;
  db.close();
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
  closeSync(fd);
}

/** A child process (store-child.ts) killed with SIGKILL once it prints `at` (and `delayMs` after). */
async function killAt(mode: string, file: string, at: string, until?: () => boolean): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join('test', 'integration', 'faults', 'store-child.ts'), mode, file],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(at)) resolve();
    });
    void exited.then(() => reject(new Error(`child ${mode} exited before "${at}": ${err}`)));
  });
  if (until) while (!until()) await new Promise((r) => setTimeout(r, 1));
  child.kill('SIGKILL');
  await exited;
  return out;
}

describe('the WAL header check', () => {
  it('accepts the header SQLite itself writes and refuses it with one bit flipped', async () => {
    const file = path.join(tempDir(), 'omnipos.db');
    await killAt('wal', file, 'committed 50');
    const head = readFileSync(`${file}-wal`).subarray(0, 32);
    expect(walHeaderProblem(head)).toBeUndefined();
    for (const byte of [0, 5, 13, 20, 27]) {
      const bad = Buffer.from(head);
      bad[byte]! ^= 0x01;
      expect(walHeaderProblem(bad), `byte ${byte}`).toMatch(/WAL/);
    }
  });
});

describe('omnipos run on a damaged database', () => {
  it('refuses to start (one line, exit 3), keeps the file aside byte for byte, never creates a new one; the next start refuses too; queue list and diag still work', async () => {
    const state = tempDir();
    const file = terminalDb(state, 3);
    damageIndex(file);
    const before = sha(file);
    expect(databaseProblem(file)).toMatch(/quick_check/);

    const p = spawnCli(['run'], { OMNIPOS_STATE_DIR: state });
    expect(await p.exitWithin(EXIT_MS), p.err()).toEqual({ code: 3, signal: null });
    expect(stderrLines(p)).toEqual([
      expect.stringMatching(
        /the database was found damaged at .* \(quick_check: .*\) and kept in .*damaged-.*; nothing is sold .*omnipos diag \[STORE_DAMAGED\]/,
      ),
    ]);
    expect(p.out()).toContain('"alarm":"STORE_DAMAGED"');
    const kept = readdirSync(state).filter((d) => d.startsWith('damaged-'));
    expect(kept).toHaveLength(1);
    expect(sha(path.join(state, kept[0]!, 'omnipos.db'))).toBe(before);
    expect(existsSync(file)).toBe(false);

    const again = spawnCli(['run'], { OMNIPOS_STATE_DIR: state });
    expect(await again.exitWithin(EXIT_MS)).toEqual({ code: 3, signal: null });
    expect(stderrLines(again)).toEqual([expect.stringContaining('[STORE_DAMAGED]')]);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(state).filter((d) => d.startsWith('damaged-'))).toEqual(kept);

    const list = spawnCli(['queue', 'list'], { OMNIPOS_STATE_DIR: state });
    expect(await list.exitWithin(EXIT_MS)).toEqual({ code: 0, signal: null });
    expect(list.out()).toContain('the database is damaged (quick_check');
    expect(list.out().match(/^#\d+ undo 2633000\d{5}/gm)).toHaveLength(3);

    const diag = spawnCli(['diag', '--json'], { OMNIPOS_STATE_DIR: state });
    expect(await diag.exitWithin(EXIT_MS)).toEqual({ code: 3, signal: null });
    const report = JSON.parse(diag.out()) as {
      status: string;
      problems: string[];
      database: { damaged: boolean; keptIn: string; todo: string[] };
    };
    expect(report.status).toBe('degraded');
    expect(report.problems.some((x) => x.startsWith('database: damaged'))).toBe(true);
    expect(report.database).toMatchObject({ damaged: true, keptIn: path.join(state, kept[0]!) });
    expect(report.database.todo.join(' ')).toMatch(/omnipos queue list.*remove .*database-damaged\.json/);
    expect(existsSync(file)).toBe(false);
    // The kept file was read, never written.
    expect(sha(path.join(state, kept[0]!, 'omnipos.db'))).toBe(before);
  });

  it('a WAL whose header does not check (SQLite would silently drop its committed rows): kept aside with the file, refused', async () => {
    const state = tempDir();
    const file = path.join(state, 'omnipos.db');
    await killAt('wal', file, 'committed 50');
    const fd = openSync(`${file}-wal`, 'r+');
    writeSync(fd, Buffer.from([0xff]), 0, 1, 12); // the checkpoint sequence number: the header checksum no longer matches
    closeSync(fd);
    const walSha = sha(`${file}-wal`);
    const p = spawnCli(['run'], { OMNIPOS_STATE_DIR: state });
    expect(await p.exitWithin(EXIT_MS)).toEqual({ code: 3, signal: null });
    expect(stderrLines(p)).toEqual([expect.stringMatching(/WAL header's checksum does not match.*\[STORE_DAMAGED\]/)]);
    const kept = readdirSync(state).find((d) => d.startsWith('damaged-'))!;
    expect(sha(path.join(state, kept, 'omnipos.db-wal'))).toBe(walSha);
  });

  it('the kept outbox is read row by row where the table itself is damaged: the rows on sound pages are listed, the rest named', () => {
    const state = tempDir();
    const file = terminalDb(state, 400);
    const db = new Database(file, { readonly: true });
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    // The last leaf page of the outbox table: the rows on it are lost, the others read.
    const leaf = (
      db.prepare("SELECT max(pageno) AS p FROM dbstat WHERE name = 'outbox' AND pagetype = 'leaf'").get() as {
        p: number;
      }
    ).p;
    db.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (leaf - 1) * pageSize);
    closeSync(fd);
    const before = sha(file);
    const salvage = salvageOutbox(file);
    expect(salvage.unreadable.length).toBeGreaterThan(0);
    expect(salvage.tasks.length).toBeGreaterThan(300);
    expect(salvage.tasks.length).toBeLessThan(400);
    expect(sha(file)).toBe(before);
  });
});

describe('power loss at a checkpoint and in a migration (SIGKILL at those points)', () => {
  for (const afterMs of [0, 3, 10, 30]) {
    it(`killed ${afterMs} ms into the checkpoints: the file checks, every committed row is there`, async () => {
      const file = path.join(tempDir(), 'omnipos.db');
      const t0 = { at: 0 };
      const out = await killAt('checkpoint', file, 'checkpointing', () => {
        t0.at ||= Date.now();
        return Date.now() - t0.at >= afterMs;
      });
      expect(out).toContain('committed 10000');
      expect(databaseProblem(file)).toBeUndefined();
      const db = openDatabase({ file, migrations: MIGRATIONS });
      try {
        const n = (db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;
        // The 10,000 committed before the checkpoints began, and whole hundreds after (never a torn transaction).
        expect(n).toBeGreaterThanOrEqual(10000);
        expect(n % 100).toBe(0);
      } finally {
        db.close();
      }
    });
  }

  it('killed in the middle of a migration: the file checks, the schema is the old version with its rows, and the migration runs again', async () => {
    const file = path.join(tempDir(), 'omnipos.db');
    // Killed once the migration's transaction has spilled pages into the WAL (it is writing).
    await killAt(
      'migrate',
      file,
      'migrating',
      () => existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 4 * 1024 * 1024,
    );
    expect(databaseProblem(file)).toBeUndefined();
    const v1: Migration = {
      version: 1,
      name: 'first',
      up: 'CREATE TABLE t (x INTEGER NOT NULL); INSERT INTO t VALUES (1);',
    };
    const db = openDatabase({ file, migrations: [v1] });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(1);
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'big'").get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT x FROM t').all()).toEqual([{ x: 1 }]);
    } finally {
      db.close();
    }
    const again = openDatabase({
      file,
      migrations: [
        v1,
        { version: 2, name: 'fast', up: 'CREATE TABLE big (x INTEGER, pad TEXT); INSERT INTO big VALUES (1, NULL);' },
      ],
    });
    expect(again.pragma('user_version', { simple: true })).toBe(2);
    again.close();
  });
});
