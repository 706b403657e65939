import path from 'node:path';
import { statfsSync } from 'node:fs';
import type { Config } from '../config/index.js';
import type { Clock } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import { DayRetention } from '../operations/index.js';
import { RECEIPT_STATES, type ReceiptFacts } from '../receipt/index.js';
import {
  AUTO_VACUUM,
  convertToIncremental,
  DiskWatch,
  giveBackSpace,
  storeSpace,
  type Db,
  type DiskView,
  type Journal,
  type JournalEntry,
  type StoreSpace,
} from '../store/index.js';

/** A database made before incremental auto-vacuum is converted at start when it holds less than this. */
const CONVERT_AT_START_BYTES = 64 * 1024 * 1024;
/**
 * A larger one is converted by the upkeep, outside sales, once retention has brought what it holds
 * under this: its one VACUUM blocks the daemon while it copies the pages twice (the WAL, then the
 * file), and must end well inside the systemd watchdog's 30 s even on slow flash.
 */
export const CONVERT_WHEN_IDLE_BYTES = 32 * 1024 * 1024;
/** Vacuum steps per pass (each VACUUM_STEP_PAGES pages), the event loop given back between them. */
const STEPS_PER_PASS = 64;

export interface MaintenanceDeps {
  config: Config;
  db: Db;
  journal: Journal;
  /** Host time (business days). */
  clock: Clock;
  log: Logger;
  /** True while a payment holds the terminal: nothing here runs then. */
  busy: () => boolean;
  receiptOf?: (entry: JournalEntry) => ReceiptFacts | undefined;
  /** Closes a business day without paper (the day book's close): a day never closed, once past its period. */
  closeDay?: (date: string) => Promise<unknown>;
}

/** What health, /metrics and the fleet read of the disk. */
export interface DiskHealth extends DiskView {
  autoVacuum: StoreSpace['autoVacuum'];
  freePages: number;
}

/**
 * The terminal's upkeep, outside sales (docs/operations.md, "Retention", "Space given back", "Disk
 * watched"): every `storage.maintenanceSeconds`, when no payment holds the terminal, one closed day
 * archived, the expired archive files deleted, freed pages given back in small steps and the WAL
 * checkpointed; the disk sampled for its alarm.
 */
export class Maintenance {
  readonly retention: DayRetention;
  readonly disk: DiskWatch;
  readonly #d: MaintenanceDeps;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;
  /** The database is in incremental auto-vacuum (nothing to convert). */
  #incremental = false;

  constructor(d: MaintenanceDeps) {
    this.#d = d;
    const s = d.config.values.storage;
    const stateDir = d.config.values.stateDir;
    this.retention = new DayRetention({
      db: d.db,
      journal: d.journal,
      archiveDir: path.join(stateDir, 'archive'),
      clock: d.clock,
      log: d.log,
      databaseDays: s.databaseDays,
      archiveDays: s.archiveDays,
      ...(d.receiptOf ? { receiptOf: d.receiptOf } : {}),
    });
    this.disk = new DiskWatch({
      stateDir,
      lowBytes: s.lowDiskBytes,
      lowDays: s.lowDiskDays,
      log: d.log,
      now: () => new Date(),
    });
  }

  /** At start, before sales: a small database of before converted to incremental auto-vacuum. */
  prepare(): void {
    this.#convert(CONVERT_AT_START_BYTES, 'at start');
  }

  /**
   * A database of before converted when it holds less than `maxLiveBytes` and the disk has room for
   * the copy; once converted (or made so), only two pragmas read a pass.
   */
  #convert(maxLiveBytes: number, when: string): void {
    const { db, log, config } = this.#d;
    if (this.#incremental || db.inTransaction) return;
    try {
      if (db.pragma('auto_vacuum', { simple: true }) === AUTO_VACUUM.incremental) {
        this.#incremental = true;
        return;
      }
      const fs = statfsSync(config.values.stateDir);
      const r = convertToIncremental(db, { maxLiveBytes, freeBytes: fs.bavail * fs.bsize });
      this.#incremental = r.converted;
      if (r.converted) log.info({ liveBytes: r.liveBytes, when }, 'database converted to incremental auto-vacuum');
    } catch (e) {
      log.warn({ err: e }, 'the database could not be converted to incremental auto-vacuum');
    }
  }

  start(): this {
    const ms = this.#d.config.values.storage.maintenanceSeconds * 1000;
    this.#timer = setInterval(() => void this.pass(), ms);
    this.#timer.unref();
    return this;
  }

  /** One pass (the timer's); a pass already running is joined, not doubled. */
  pass(): Promise<void> {
    this.#running ??= this.#pass().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #pass(): Promise<void> {
    const { db, log, busy } = this.#d;
    try {
      if (this.#stopped || busy()) return;
      await this.#closeForgottenDay();
      if (this.#stopped || busy()) return;
      this.retention.step(1);
      // A database too large to convert at start, once retention has emptied it enough.
      if (!this.#stopped && !busy()) this.#convert(CONVERT_WHEN_IDLE_BYTES, 'when idle');
      for (let i = 0; i < STEPS_PER_PASS && !this.#stopped && !busy(); i++) {
        if (!giveBackSpace(db).more) break;
        await new Promise((r) => setImmediate(r));
      }
      this.disk.sample();
    } catch (e) {
      log.warn({ err: e }, 'maintenance pass failed (retried at the next)');
    }
  }

  /**
   * A day nobody closed would stay in the database for ever: past its database period retention
   * closes it (no paper; the report as of now), one a pass, and it is archived like any closed day.
   */
  async #closeForgottenDay(): Promise<void> {
    const { closeDay, log } = this.#d;
    if (!closeDay) return;
    for (const date of this.retention.unclosedDueDays(1)) {
      log.warn({ date }, 'a business day never closed, closed by retention (no paper) so it can be archived');
      await closeDay(date);
    }
  }

  /** Health's, /metrics' and the fleet's view of the disk. */
  view(): DiskHealth {
    const space = storeSpace(this.#d.db, path.join(this.#d.config.values.stateDir, 'omnipos.db'));
    return { ...this.disk.view(), autoVacuum: space.autoVacuum, freePages: space.freePages };
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
  }
}

/** What the engines give of a payment's receipt (their `receiptOf`, rebuilt from the journal). */
interface ReceiptSource {
  receiptOf(id: number): { subject: ReceiptFacts };
}

/**
 * A payment's receipt facts for its day's archive, from its engine: a payment whose receipt step
 * began (RECEIPT_STATES), a void that took effect; undefined for the rest, or when its data lacks them.
 */
export function receiptFactsOf(
  engines: Partial<Record<JournalEntry['kind'], ReceiptSource | undefined>>,
): (entry: JournalEntry) => ReceiptFacts | undefined {
  return (entry) => {
    const engine = engines[entry.kind];
    const has = entry.kind === 'void' ? entry.state === 'confirmed' : RECEIPT_STATES.includes(entry.state);
    if (!engine || !has) return undefined;
    try {
      return engine.receiptOf(entry.id).subject;
    } catch {
      return undefined;
    }
  };
}
