import { statfsSync } from 'node:fs';
import { OmniposError } from '../core/errors/index.js';
import type { Logger } from '../core/log/index.js';
import type { Db } from './open.js';

const listeners = new WeakMap<Db, (e: OmniposError) => void>();

/** Who hears that a write to `db` failed for want of space or an I/O error (the daemon's write health). */
export function onWriteFailure(db: Db, listener: (e: OmniposError) => void): void {
  listeners.set(db, listener);
}

/**
 * SQLite's "disk full" and I/O errors (SQLITE_FULL, SQLITE_IOERR_*; ENOSPC and EIO underneath) as
 * STORE_WRITE_FAILED (503, the cash register shows the code), reported to the listener; anything
 * else undefined (rethrown as it was). The transaction was rolled back: nothing of it was written.
 */
export function writeFailure(db: Db, e: unknown): OmniposError | undefined {
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string' || !(code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR'))) return undefined;
  const err = new OmniposError('STORE_WRITE_FAILED', `the journal cannot commit (${code}: ${(e as Error).message}); no new payment starts until it can`, { sqlite: code }, { cause: e });
  listeners.get(db)?.(err);
  return err;
}

export interface WriteHealthOptions {
  /** The folder whose file system holds the database. */
  dir: string;
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
 * reserve, and the last write that failed. It heals by itself: once the space is back, the next
 * check clears the failure and the alarm.
 */
export class WriteHealth {
  readonly #o: Required<Omit<WriteHealthOptions, 'reserveBytes'>> & { reserveBytes: number };
  #failure: { since: string; reason: string } | undefined;

  constructor(o: WriteHealthOptions) {
    this.#o = { ...o, reserveBytes: o.reserveBytes ?? 8 * 1024 * 1024 };
  }

  /** A write failed (from {@link writeFailure}). */
  failed(e: OmniposError): void {
    if (!this.#failure) this.#o.log.error({ alarm: 'STORE_WRITE_FAILED', err: e }, 'the journal cannot commit: no new payment starts');
    this.#failure ??= { since: this.#o.now().toISOString(), reason: e.message };
  }

  /** Free bytes for this process on the database's file system. */
  freeBytes(): number {
    const s = statfsSync(this.#o.dir);
    return s.bavail * s.bsize;
  }

  /** Why no new payment may start now, or undefined. */
  problem(): string | undefined {
    let free: number;
    try {
      free = this.freeBytes();
    } catch (e) {
      return `the state directory's file system cannot be read (${(e as Error).message})`;
    }
    if (free < this.#o.reserveBytes) {
      const reason = `${Math.floor(free / 1024)} KiB free on ${this.#o.dir}, below the ${Math.floor(this.#o.reserveBytes / 1024)} KiB kept for payments in flight and the outbox`;
      if (!this.#failure) {
        this.#failure = { since: this.#o.now().toISOString(), reason };
        this.#o.log.error({ alarm: 'STORE_WRITE_FAILED', freeBytes: free, reserveBytes: this.#o.reserveBytes }, 'the disk is nearly full: no new payment starts');
      }
      return reason;
    }
    if (this.#failure) {
      this.#o.log.info({ freeBytes: free, since: this.#failure.since }, 'the disk has room again: payments start again');
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
    return [{ id: `STORE_WRITE_FAILED:${this.#failure.since}`, code: 'STORE_WRITE_FAILED', key: 'STORE_WRITE_FAILED', severity: 'error', message: `no new payment starts: ${why}`, since: this.#failure.since, source: 'condition', context: { dir: this.#o.dir } }];
  }
}
