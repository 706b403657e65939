import { statfsSync } from 'node:fs';
import type { Database as Db, Statement, Transaction } from 'better-sqlite3';
import { OmniposError } from '../core/index.js';
import type { Logger } from '../core/index.js';

interface Listener {
  failed: (e: OmniposError) => void;
  committed?: () => void;
}
const listeners = new WeakMap<Db, Listener>();
const watched = new WeakSet<Db>();
/** Databases running a commit without an fsync of its own (see {@link unsynced}). */
const unsyncedNow = new WeakSet<Db>();
/** Errors already reported: an error rethrown through nested wrappers is heard once. */
const reported = new WeakSet<object>();

/**
 * Who hears that a write to `db` failed for want of space or an I/O error (the daemon's write
 * health), and that a write committed again. Every statement and transaction of a watched
 * database reports ({@link watchWrites}): the journal, the outbox, the API's event log, the
 * telemetry outbox alike.
 */
export function onWriteFailure(db: Db, failed: (e: OmniposError) => void, committed?: () => void): void {
  listeners.set(db, { failed, ...(committed ? { committed } : {}) });
}

/** SQLite's "disk full" and I/O error codes (SQLITE_FULL, SQLITE_IOERR_*: ENOSPC, EIO, EROFS underneath). */
function isStoreFailure(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR')) ? code : undefined;
}

/**
 * SQLite's "disk full" and I/O errors as STORE_WRITE_FAILED, reported to nobody: what the API answers
 * for a write that failed under a request whatever store it was (the order ids', the journal's…),
 * the guard of the statement having already told write health. Anything else undefined.
 */
export function storeWriteFailure(e: unknown): OmniposError | undefined {
  const code = isStoreFailure(e);
  if (!code) return undefined;
  return new OmniposError(
    'STORE_WRITE_FAILED',
    `the journal cannot commit (${code}: ${(e as Error).message}); no new payment starts until it can`,
    { sqlite: code },
    { cause: e },
  );
}

/**
 * SQLite's "disk full" and I/O errors as STORE_WRITE_FAILED (503, the cash register shows the
 * code), reported to the listener; anything else undefined (rethrown as it was). The transaction
 * was rolled back: nothing of it was written.
 */
export function writeFailure(db: Db, e: unknown): OmniposError | undefined {
  const err = storeWriteFailure(e);
  if (!err) return undefined;
  if (!reported.has(e as object)) {
    reported.add(e as object);
    listeners.get(db)?.failed(err);
  }
  return err;
}

/**
 * Runs `fn`, whose commits on `db` are not synced to the device (synchronous = NORMAL: the WAL is
 * written, not fsynced): they are not heard as the store writing again. A write that failed (EIO,
 * ENOSPC) shows at the fsync, so an unsynced commit "succeeds" on a device that no longer writes;
 * heard as a commit, it cleared STORE_WRITE_FAILED while every durable write still failed (the event
 * log's own commits, written outside the outbox's transaction: test/integration/faults/disk-eio.test.ts).
 * Failures are still heard.
 */
export function unsynced<T>(db: Db, fn: () => T): T {
  if (unsyncedNow.has(db)) return fn();
  unsyncedNow.add(db);
  try {
    return fn();
  } finally {
    unsyncedNow.delete(db);
  }
}

/** Run before each outermost transaction of a database begins (see {@link beforeEachTransaction}). */
const beforeBegin = new WeakMap<Db, () => void>();

/**
 * Calls `fn` before each outermost transaction of watched `db` begins (BEGIN, not a savepoint): the
 * event hub writes there the events it holds back for one commit, so none published outside a
 * transaction is written inside one that then rolls back. `fn` must not throw.
 */
export function beforeEachTransaction(db: Db, fn: () => void): void {
  beforeBegin.set(db, fn);
}

/** Each watched database's `SELECT total_changes()`, prepared unguarded (it writes nothing). */
const totalChanges = new WeakMap<Db, Statement>();

/** Rows inserted, updated or deleted on `db`'s connection since it opened (SQLite's total_changes()). */
function changesSoFar(db: Db): number {
  return totalChanges.get(db)!.get() as number;
}

/**
 * A commit heard as the store writing again: a durable one, outside any transaction, that changed
 * rows. A transaction or statement that changed nothing commits without writing a page (no WAL
 * frame, no fsync), so it "succeeds" on a device that no longer writes; heard as a commit, it
 * cleared STORE_WRITE_FAILED after a failed write (a claim that found nothing, a clock-behind
 * order id: test/unit/store/write-health.transactions.test.ts, test/integration/faults/disk-eio.test.ts).
 */
function heardCommitted(db: Db, changed: boolean): void {
  if (changed && !db.inTransaction && !unsyncedNow.has(db)) listeners.get(db)?.committed?.();
}

function guardStatement(db: Db, s: Statement): Statement {
  for (const method of ['run', 'get', 'all'] as const) {
    const original = (Object.getPrototypeOf(s) as Record<string, (...a: unknown[]) => unknown>)[method] as (
      ...a: unknown[]
    ) => unknown;
    Object.defineProperty(s, method, {
      value: (...args: unknown[]): unknown => {
        try {
          const out = original.apply(s, args);
          if (method === 'run' && !s.reader) heardCommitted(db, (out as { changes: number }).changes > 0);
          return out;
        } catch (e) {
          writeFailure(db, e);
          throw e;
        }
      },
    });
  }
  return s;
}

/** A body run in a transaction (better-sqlite3's, made once per database) of each variant. */
type Run = (body: () => unknown) => unknown;
interface Runner {
  readonly default: Run;
  readonly deferred: Run;
  readonly immediate: Run;
  readonly exclusive: Run;
}

function runnerOf(db: Db): Runner {
  const t = db.transaction((body: () => unknown) => body());
  return {
    default: (body) => t.default(body),
    deferred: (body) => t.deferred(body),
    immediate: (body) => t.immediate(body),
    exclusive: (body) => t.exclusive(body),
  };
}

/**
 * A transaction of `fn` that reports like the statements. It runs through the database's one
 * `runner` (BEGIN … COMMIT, or a savepoint when nested: better-sqlite3's own logic) rather than a
 * better-sqlite3 transaction made per call, whose four variants with their properties cost more
 * than a commit's statements (the journal makes one per transition).
 */
function guardTransaction<F extends (...a: never[]) => unknown>(db: Db, fn: F, runner: Runner): Transaction<F> {
  type Args = Parameters<Transaction<F>>;
  type Out = ReturnType<F>;
  const guarded =
    (variant: Run) =>
    (...args: Args): Out => {
      try {
        if (!db.inTransaction) beforeBegin.get(db)?.();
        const before = db.inTransaction ? undefined : changesSoFar(db);
        const out = variant(() => fn(...args)) as Out;
        if (before !== undefined) heardCommitted(db, changesSoFar(db) !== before);
        return out;
      } catch (e) {
        writeFailure(db, e);
        throw e;
      }
    };
  // The transaction and each of its variants (BEGIN, BEGIN DEFERRED, IMMEDIATE, EXCLUSIVE), each guarded.
  return Object.assign(guarded(runner.default), {
    default: guarded(runner.default),
    deferred: guarded(runner.deferred),
    immediate: guarded(runner.immediate),
    exclusive: guarded(runner.exclusive),
  });
}

/**
 * Makes every statement prepared on `db`, every transaction and every `exec` report a disk-full
 * or I/O error to the listener ({@link onWriteFailure}), and a commit that succeeded. Before
 * this only the journal's writes were heard: an outbox that could not record a delivery, or an
 * event log that could not append, failed in silence. Idempotent.
 */
export function watchWrites(db: Db): void {
  if (watched.has(db)) return;
  watched.add(db);
  const prepare = db.prepare.bind(db);
  totalChanges.set(db, prepare('SELECT total_changes()').pluck());
  db.prepare = ((sql: string) => guardStatement(db, prepare(sql))) as Db['prepare'];
  const runner = runnerOf(db);
  db.transaction = (<F extends (...a: never[]) => unknown>(fn: F) => {
    if (typeof fn !== 'function') throw new TypeError('Expected first argument to be a function');
    return guardTransaction(db, fn, runner);
  }) as Db['transaction'];
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    try {
      return exec(sql);
    } catch (e) {
      writeFailure(db, e);
      throw e;
    }
  };
}

export interface WriteHealthOptions {
  /** The folder whose file system holds the database. */
  dir: string;
  /**
   * The database whose writes are watched: a failed write holds the alarm until a write commits
   * again (the check writes one page itself when nothing else does). Without it only the free
   * space is watched.
   */
  db?: Db;
  /**
   * Free bytes below which no new payment starts: the room kept for the payments in flight to
   * reach a final state and for the outbox to record what it delivers. Default 8 MiB.
   */
  reserveBytes?: number;
  log: Logger;
  now: () => Date;
}

export interface WriteHealthAlarm {
  id: string;
  code: 'STORE_WRITE_FAILED';
  key: string;
  severity: 'error';
  message: string;
  since: string;
  source: 'condition';
  context: Record<string, unknown>;
}

/**
 * Whether the journal can take a new payment: the free space of its file system against the
 * reserve, and the last write that failed (ENOSPC, EIO, EROFS: in the journal, the outbox, the
 * event log…). It heals by itself: a failed write holds until a write commits again (the next
 * check tries one: the schema version written over with itself), and once the space is back the
 * next check clears the alarm.
 */
export class WriteHealth {
  readonly #o: Omit<WriteHealthOptions, 'reserveBytes'> & { reserveBytes: number };
  #failure: { since: string; reason: string } | undefined;
  /** The last write failed and no write has committed since. */
  #writeFailed: string | undefined;

  constructor(o: WriteHealthOptions) {
    this.#o = { ...o, reserveBytes: o.reserveBytes ?? 8 * 1024 * 1024 };
    if (o.db)
      onWriteFailure(
        o.db,
        (e) => this.failed(e),
        () => this.committed(),
      );
  }

  /** A write failed (from {@link writeFailure}). */
  failed(e: OmniposError): void {
    if (!this.#failure)
      this.#o.log.error({ alarm: 'STORE_WRITE_FAILED', err: e }, 'the journal cannot commit: no new payment starts');
    this.#writeFailed = e.message;
    this.#failure ??= { since: this.#o.now().toISOString(), reason: e.message };
  }

  /** A write committed: the store writes again (the free space is still checked). */
  committed(): void {
    this.#writeFailed = undefined;
  }

  /** Free bytes for this process on the database's file system. */
  freeBytes(): number {
    const s = statfsSync(this.#o.dir);
    return s.bavail * s.bsize;
  }

  /** Tries one write (the schema version over itself, one page): true when it committed. */
  #probe(): boolean {
    const db = this.#o.db;
    if (!db || db.inTransaction) return false;
    try {
      const version = db.pragma('user_version', { simple: true }) as number;
      db.pragma(`user_version = ${version}`);
      this.#writeFailed = undefined;
      return true;
    } catch (e) {
      this.#writeFailed = `${(e as { code?: string }).code ?? 'error'}: ${(e as Error).message}`;
      return false;
    }
  }

  #why(): string | undefined {
    if (this.#writeFailed !== undefined && !this.#probe())
      return `a write to the database failed (${this.#writeFailed}) and none has committed since`;
    let free: number;
    try {
      free = this.freeBytes();
    } catch (e) {
      return `the state directory's file system cannot be read (${(e as Error).message})`;
    }
    if (free < this.#o.reserveBytes) {
      return `${Math.floor(free / 1024)} KiB free on ${this.#o.dir}, below the ${Math.floor(this.#o.reserveBytes / 1024)} KiB kept for payments in flight and the outbox`;
    }
    return undefined;
  }

  /** Why no new payment may start now, or undefined. */
  problem(): string | undefined {
    const why = this.#why();
    if (why) {
      if (!this.#failure) {
        this.#failure = { since: this.#o.now().toISOString(), reason: why };
        this.#o.log.error(
          { alarm: 'STORE_WRITE_FAILED', reason: why },
          'the journal cannot commit: no new payment starts',
        );
      }
      return why;
    }
    if (this.#failure) {
      this.#o.log.info(
        { since: this.#failure.since },
        'the database writes again and the disk has room: payments start again',
      );
      this.#failure = undefined;
    }
    return undefined;
  }

  /** Throws STORE_WRITE_FAILED (503) when no new payment may start. */
  assertWritable(): void {
    const why = this.problem();
    if (why) throw new OmniposError('STORE_WRITE_FAILED', `no new payment starts: ${why}`, { dir: this.#o.dir });
  }

  /** The alarm while it holds (GET /v1/health's alarms and problems). */
  alarms(): WriteHealthAlarm[] {
    const why = this.problem();
    if (!why || !this.#failure) return [];
    return [
      {
        id: `STORE_WRITE_FAILED:${this.#failure.since}`,
        code: 'STORE_WRITE_FAILED',
        key: 'STORE_WRITE_FAILED',
        severity: 'error',
        message: `no new payment starts: ${why}`,
        since: this.#failure.since,
        source: 'condition',
        context: { dir: this.#o.dir },
      },
    ];
  }
}
