import { readdirSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../core/index.js';
import { archiveBytes } from './day-files.js';

/**
 * The terminal's disk, watched (docs/operations.md, "Disk watched"): the free space of the state
 * directory's file system and what the terminal's own files take (database, WAL, archive, logs),
 * the rate the free space falls at, and an alarm (`DISK_LOW`) well before a full disk stops every
 * sale (`STORE_WRITE_FAILED`, below the write reserve): when fewer than `lowBytes` are free, or when
 * the free space would last fewer than `lowDays` days at the rate of the last days.
 */

export interface DiskView {
  freeBytes: number;
  totalBytes: number;
  dbBytes: number;
  walBytes: number;
  archiveBytes: number;
  logBytes: number;
  /** Bytes a day the free space falls by (over the samples of the last week); null before a rate is known. */
  bytesPerDay: number | null;
  /** Days until the write reserve is reached at that rate; null while the free space does not fall. */
  daysLeft: number | null;
}

export interface DiskAlarm {
  id: string;
  code: 'DISK_LOW';
  key: string;
  severity: 'warn';
  message: string;
  since: string;
  source: 'condition';
  context: Record<string, unknown>;
}

export interface DiskWatchOptions {
  stateDir: string;
  /** Raised below this many free bytes. */
  lowBytes: number;
  /** Raised when the free space would last fewer days than this. */
  lowDays: number;
  /** The write reserve (WriteHealth's): where the days left end. */
  reserveBytes?: number;
  log: Logger;
  now: () => Date;
}

const DAY_MS = 86_400_000;
/** The rate is measured over this much time at most, and no sooner than after an hour. */
const WINDOW_MS = 7 * DAY_MS;
const MIN_SPAN_MS = 3_600_000;

function size(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function folderBytes(dir: string): number {
  try {
    return readdirSync(dir).reduce((n, f) => n + size(path.join(dir, f)), 0);
  } catch {
    return 0;
  }
}

export class DiskWatch {
  readonly #o: Required<DiskWatchOptions>;
  /** One sample an hour at most, the last week's. */
  #samples: { at: number; free: number }[] = [];
  #since: string | undefined;
  #last: DiskView | undefined;

  constructor(o: DiskWatchOptions) {
    this.#o = { reserveBytes: 8 * 1024 * 1024, ...o };
  }

  /** Reads the disk now (statfs and a few stat calls) and keeps a sample for the rate. */
  sample(): DiskView {
    const { stateDir } = this.#o;
    const s = statfsSync(stateDir);
    const free = s.bavail * s.bsize;
    const at = this.#o.now().getTime();
    const last = this.#samples.at(-1);
    if (!last || at - last.at >= MIN_SPAN_MS || at < last.at) {
      if (last && at < last.at) this.#samples = [];
      this.#samples.push({ at, free });
      while (this.#samples.length > 1 && at - (this.#samples[0]?.at ?? at) > WINDOW_MS) this.#samples.shift();
    }
    const first = this.#samples[0];
    const span = first ? at - first.at : 0;
    const bytesPerDay = first && span >= MIN_SPAN_MS ? ((first.free - free) / span) * DAY_MS : null;
    const db = path.join(stateDir, 'omnipos.db');
    const view: DiskView = {
      freeBytes: free,
      totalBytes: s.blocks * s.bsize,
      dbBytes: size(db),
      walBytes: size(`${db}-wal`),
      archiveBytes: archiveBytes(path.join(stateDir, 'archive')),
      logBytes: folderBytes(path.join(stateDir, 'logs')),
      bytesPerDay: bytesPerDay === null ? null : Math.round(bytesPerDay),
      daysLeft:
        bytesPerDay !== null && bytesPerDay > 0
          ? Math.max(0, Math.round(((free - this.#o.reserveBytes) / bytesPerDay) * 10) / 10)
          : null,
    };
    this.#last = view;
    return view;
  }

  /** The last sample (one taken now if none yet). */
  view(): DiskView {
    return this.#last ?? this.sample();
  }

  /** Why the disk alarm holds, or undefined. */
  #why(v: DiskView): string | undefined {
    const mib = (n: number): string => `${Math.floor(n / 1024 / 1024)} MiB`;
    if (v.freeBytes < this.#o.lowBytes)
      return `${mib(v.freeBytes)} free on ${this.#o.stateDir}, below the ${mib(this.#o.lowBytes)} the disk alarm keeps${v.daysLeft !== null ? ` (${v.daysLeft} days left at ${mib(v.bytesPerDay ?? 0)} a day)` : ''}`;
    if (v.daysLeft !== null && v.daysLeft < this.#o.lowDays)
      return `${v.daysLeft} days of free space left on ${this.#o.stateDir} at the current rate (${mib(v.bytesPerDay ?? 0)} a day, ${mib(v.freeBytes)} free)`;
    return undefined;
  }

  /** The disk alarm while it holds (health, /metrics, the fleet); samples the disk. */
  alarms(): DiskAlarm[] {
    let v: DiskView;
    try {
      v = this.sample();
    } catch {
      return [];
    }
    const why = this.#why(v);
    if (!why) {
      if (this.#since) this.#o.log.info({ since: this.#since }, 'the disk has room again');
      this.#since = undefined;
      return [];
    }
    if (!this.#since) {
      this.#since = this.#o.now().toISOString();
      this.#o.log.warn({ alarm: 'DISK_LOW', reason: why, ...v }, 'the disk is filling: act before sales stop');
    }
    return [
      {
        id: `DISK_LOW:${this.#since}`,
        code: 'DISK_LOW',
        key: 'DISK_LOW',
        severity: 'warn',
        message: why,
        since: this.#since,
        source: 'condition',
        context: { dir: this.#o.stateDir, freeBytes: v.freeBytes, daysLeft: v.daysLeft },
      },
    ];
  }
}
