import type { Clock } from '../../core/index.js';
import { OmniposError } from '../../core/index.js';
import type { Statement } from 'better-sqlite3';
import { statement, type Db } from '../../store/index.js';
import { normaliseHigh, normaliseLow } from '../bins/normalise.js';
import type { BinRow, InitializationTables } from '../model.js';
import { decodeRecords } from '../records/index.js';

/** Everything but the BIN rows and the decoded records, stored as one JSON document per version. */
type Document = Omit<InitializationTables, 'bins' | 'aidRecords' | 'keyRecords'>;

export interface InstallOptions {
  /** BIN rows written per transaction while the new version is written beside the current one. Default 20,000. */
  chunkRows?: number;
  /** Called after each committed chunk with the rows written so far (progress; tests use it to interrupt). */
  onChunk?: (written: number, total: number) => void;
}

export interface InstallResult {
  version: string;
  /** False when that version was already in force (nothing written). */
  installed: boolean;
  /** The version it replaced, if any. */
  previous: string | undefined;
}

export interface VersionInfo {
  version: string;
  state: 'writing' | 'complete';
  startedAt: string;
  completedAt: string | null;
  current: boolean;
}

interface BinDbRow {
  initial_bin: string;
  final_bin: string;
  product_id: number;
  issuer_id: number;
  type: 0 | 1;
  flags: number;
}

/**
 * The initialization tables in SQLite (migration 2), versioned by `InitializationVersion`.
 * `install` writes a new version beside the one in force, in chunks, then puts it in force in one
 * transaction; until that transaction commits the previous version stays in force, so a failed or
 * interrupted initialization changes nothing a sale sees. Leftovers of an interrupted write are
 * removed by the next `install`.
 */
export class InitializationStore {
  private readonly nearest: Statement;
  private readonly group: Statement;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    // A load killed between dropping and rebuilding the range index leaves it missing: rebuild it.
    db.exec('CREATE INDEX IF NOT EXISTS init_bins_range ON init_bins(version, type, lo19, hi19)');
    // Both columns descending: one backward walk of the index, no sort.
    this.nearest = db.prepare(
      'SELECT lo19, hi19 FROM init_bins INDEXED BY init_bins_range WHERE version = ? AND type = ? AND lo19 <= ? ORDER BY lo19 DESC, hi19 DESC LIMIT 8',
    );
    this.group = db.prepare(
      'SELECT initial_bin, final_bin, product_id, issuer_id, type, flags FROM init_bins INDEXED BY init_bins_range WHERE version = ? AND type = ? AND lo19 = ? AND hi19 = ?',
    );
  }

  /** The version in force, or undefined before the first initialization. */
  currentVersion(): string | undefined {
    const row = statement(this.db, 'SELECT version FROM init_current WHERE id = 1').get() as
      { version: string } | undefined;
    return row?.version;
  }

  /**
   * Stores `tables` and puts them in force. Two initializations writing at once do not mix: the
   * one whose rows were taken over fails with STORE_CONFLICT, the other completes.
   */
  install(tables: InitializationTables, options: InstallOptions = {}): InstallResult {
    try {
      return this.write(tables, options);
    } catch (e) {
      if (e instanceof Error && 'code' in e && typeof e.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT')) {
        throw new OmniposError(
          'STORE_CONFLICT',
          `initialization ${tables.version}: another initialization is writing the same version`,
          { version: tables.version },
          { cause: e },
        );
      }
      throw e;
    }
  }

  private write(tables: InitializationTables, options: InstallOptions): InstallResult {
    const version = tables.version;
    const previous = this.currentVersion();
    if (previous === version) return { version, installed: false, previous };
    const now = () => this.clock.now().toISOString();
    const chunk = Math.max(1, options.chunkRows ?? 20_000);
    this.db.transaction(() => {
      this.removeVersionsExcept(previous);
      this.db
        .prepare("INSERT INTO init_versions (version, state, started_at) VALUES (?, 'writing', ?)")
        .run(version, now());
      const { bins: _b, aidRecords: _a, keyRecords: _k, ...doc } = tables;
      void _b;
      void _a;
      void _k;
      this.db
        .prepare("INSERT INTO init_documents (version, name, body) VALUES (?, 'tables', ?)")
        .run(version, JSON.stringify(doc satisfies Document));
    })();
    // A large table loads faster without its range index, built once at the end (a sort) instead
    // of growing row by row; the tables in force are read from memory meanwhile.
    const large = tables.bins.length >= 10_000;
    if (large) this.db.exec('DROP INDEX IF EXISTS init_bins_range');
    const insert = this.db.prepare(
      'INSERT INTO init_bins (version, seq, lo19, hi19, initial_bin, final_bin, product_id, issuer_id, type, flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const bins = tables.bins;
    const writeChunk = this.db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const b = bins[i]!;
        insert.run(
          version,
          i,
          normaliseLow(b.InitialBin),
          normaliseHigh(b.FinalBin),
          b.InitialBin,
          b.FinalBin,
          b.ProductId,
          b.IssuerId,
          b.Type,
          b.flags,
        );
      }
    });
    for (let from = 0; from < bins.length; from += chunk) {
      const to = Math.min(bins.length, from + chunk);
      writeChunk(from, to);
      options.onChunk?.(to, bins.length);
    }
    if (large) this.db.exec('CREATE INDEX IF NOT EXISTS init_bins_range ON init_bins(version, type, lo19, hi19)');
    this.db.transaction(() => {
      const still = this.currentVersion();
      if (still !== previous)
        throw new OmniposError(
          'STORE_CONFLICT',
          `initialization ${version}: version ${String(still)} was put in force meanwhile`,
          { version },
        );
      this.db
        .prepare("UPDATE init_versions SET state = 'complete', completed_at = ? WHERE version = ?")
        .run(now(), version);
      this.db
        .prepare(
          'INSERT INTO init_current (id, version, switched_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version, switched_at = excluded.switched_at, pinpad_table_version = NULL',
        )
        .run(version, now());
    })();
    this.db.transaction(() => this.removeVersionsExcept(version))();
    return { version, installed: true, previous };
  }

  /** The tables in force, read back and checked, or undefined before the first initialization. */
  current(): InitializationTables | undefined {
    const version = this.currentVersion();
    return version === undefined ? undefined : this.load(version);
  }

  /** A stored, complete version. */
  load(version: string): InitializationTables {
    const doc = this.db
      .prepare("SELECT body FROM init_documents WHERE version = ? AND name = 'tables'")
      .get(version) as { body: string } | undefined;
    if (!doc)
      throw new OmniposError('INIT_NOT_INITIALIZED', `initialization version ${version} is not stored`, { version });
    const d = JSON.parse(doc.body) as Document;
    const rows = this.db
      .prepare(
        'SELECT initial_bin, final_bin, product_id, issuer_id, type, flags FROM init_bins WHERE version = ? ORDER BY seq',
      )
      .raw(false)
      .all(version) as BinDbRow[];
    const bins: BinRow[] = rows.map((r) => ({
      InitialBin: r.initial_bin,
      FinalBin: r.final_bin,
      ProductId: r.product_id,
      IssuerId: r.issuer_id,
      Type: r.type,
      flags: r.flags,
    }));
    return {
      ...d,
      bins,
      aidRecords: decodeRecords(d.aidParameters, 'AidParameters'),
      keyRecords: decodeRecords(d.publicKeys, 'PublicKeys'),
    };
  }

  /** Every stored version, newest first, with its state. */
  versions(): VersionInfo[] {
    const current = this.currentVersion();
    const rows = this.db
      .prepare('SELECT version, state, started_at, completed_at FROM init_versions ORDER BY started_at DESC')
      .all() as {
      version: string;
      state: 'writing' | 'complete';
      started_at: string;
      completed_at: string | null;
    }[];
    return rows.map((r) => ({
      version: r.version,
      state: r.state,
      startedAt: r.started_at,
      completedAt: r.completed_at,
      current: r.version === current,
    }));
  }

  /** When the version in force was switched in (for the re-initialization schedule). */
  switchedAt(): Date | undefined {
    const row = statement(this.db, 'SELECT switched_at FROM init_current WHERE id = 1').get() as
      { switched_at: string } | undefined;
    return row ? new Date(row.switched_at) : undefined;
  }

  /** The pinpad table version last loaded for the version in force (set by the pinpad load), if any. */
  pinpadTableVersion(): string | undefined {
    const row = statement(this.db, 'SELECT pinpad_table_version FROM init_current WHERE id = 1').get() as
      { pinpad_table_version: string | null } | undefined;
    return row?.pinpad_table_version ?? undefined;
  }

  /** Records that the pinpad holds the tables of the version in force under `tableVersion`. */
  setPinpadTableVersion(tableVersion: string): void {
    this.db.prepare('UPDATE init_current SET pinpad_table_version = ? WHERE id = 1').run(tableVersion);
  }

  /**
   * The BIN rows of a range found with the SQLite index alone, the way a table lookup is usually
   * written: per type (specific first), among the few ranges starting nearest at or below the card,
   * the first that also ends at or above it. Exact when the ranges of a type do not nest or overlap; the in-memory
   * `BinIndex` is exact always. The benchmark compares the two.
   */
  lookupSql(digits: string, version = this.currentVersion()): BinRow[] {
    if (version === undefined) return [];
    const lo = normaliseLow(digits);
    const hi = normaliseHigh(digits);
    for (const type of [0, 1]) {
      // The nearest starts (ties: the narrowest) that also reach the card.
      const near = this.nearest.all(version, type, lo) as { lo19: string; hi19: string }[];
      let r: { lo19: string; hi19: string } | undefined;
      for (const x of near) {
        if (x.hi19 < hi) continue;
        if (r && x.lo19 !== r.lo19) break;
        r = x;
      }
      if (!r) continue;
      const rows = this.group.all(version, type, r.lo19, r.hi19) as BinDbRow[];
      return rows.map((x) => ({
        InitialBin: x.initial_bin,
        FinalBin: x.final_bin,
        ProductId: x.product_id,
        IssuerId: x.issuer_id,
        Type: x.type,
        flags: x.flags,
      }));
    }
    return [];
  }

  /** Removes every stored version but `keep` (and the one in force), by version: no scan of the rows kept. */
  private removeVersionsExcept(keep: string | undefined): void {
    const gone = this.db
      .prepare(
        'SELECT version FROM init_versions WHERE version IS NOT ? AND version NOT IN (SELECT version FROM init_current)',
      )
      .pluck()
      .all(keep ?? null) as string[];
    for (const v of gone) {
      this.db.prepare('DELETE FROM init_bins WHERE version = ?').run(v);
      this.db.prepare('DELETE FROM init_documents WHERE version = ?').run(v);
      this.db.prepare('DELETE FROM init_versions WHERE version = ?').run(v);
    }
  }
}
