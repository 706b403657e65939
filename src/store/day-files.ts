import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { OmniposError } from '../core/index.js';

/**
 * The compact archive of closed days: one file per business day,
 * `<dir>/<YYYY>/<YYYY-MM-DD>.json.gz` (gzip of one JSON document), beside
 * `<YYYY-MM-DD>.json.gz.sha256` in `sha256sum`'s format (`sha256sum -c` checks it on any laptop).
 * Written whole or not at all (a temporary file, fsync, rename, fsync of the folder): a power cut
 * leaves the previous state, never half a day. What the document holds is the caller's
 * (src/operations/retention); this file only stores, checks and lists.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface DayFile {
  date: string;
  file: string;
  sha256: string;
  /** Bytes of the compressed file. */
  bytes: number;
}

function dayPath(dir: string, date: string): string {
  if (!DATE.test(date)) throw new OmniposError('INVALID_ARGUMENT', `archive: expected a date YYYY-MM-DD, got ${date}`);
  return path.join(dir, date.slice(0, 4), `${date}.json.gz`);
}

function writeDurably(file: string, bytes: Uint8Array): void {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes one day's document (compressed, checksummed, durable) and answers what was written. */
export function writeDayFile(dir: string, date: string, document: unknown): DayFile {
  const file = dayPath(dir, date);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const gz = gzipSync(Buffer.from(JSON.stringify(document)), { level: 9 });
  const sha256 = createHash('sha256').update(gz).digest('hex');
  try {
    writeDurably(file, gz);
    writeDurably(`${file}.sha256`, Buffer.from(`${sha256}  ${path.basename(file)}\n`));
    syncDir(path.dirname(file));
  } catch (e) {
    throw new OmniposError(
      'STORE_WRITE_FAILED',
      `the archive of ${date} could not be written (${(e as Error).message}); the day stays in the database`,
      { file },
      { cause: e },
    );
  }
  return { date, file, sha256, bytes: gz.length };
}

/**
 * One archived day's document, its checksum verified first; undefined when the day is not archived.
 * A file whose bytes do not match its checksum (or whose checksum is gone) is refused, never read.
 */
export function readDayFile(dir: string, date: string): unknown {
  const file = dayPath(dir, date);
  if (!existsSync(file)) return undefined;
  const gz = readFileSync(file);
  const sum = existsSync(`${file}.sha256`) ? readFileSync(`${file}.sha256`, 'utf8').split(/\s+/)[0] : undefined;
  const actual = createHash('sha256').update(gz).digest('hex');
  if (sum !== actual) {
    throw new OmniposError(
      'STORE_DAMAGED',
      `the archive of ${date} does not match its checksum (${file}: sha256 ${actual}, recorded ${sum ?? 'none'}); it is not read`,
      { file },
    );
  }
  return JSON.parse(gunzipSync(gz).toString('utf8')) as unknown;
}

/** The archived days, oldest first, with their sizes. */
export function listDayFiles(dir: string): { date: string; file: string; bytes: number }[] {
  if (!existsSync(dir)) return [];
  const out: { date: string; file: string; bytes: number }[] = [];
  for (const year of readdirSync(dir).filter((y) => /^\d{4}$/.test(y))) {
    for (const name of readdirSync(path.join(dir, year))) {
      const m = /^(\d{4}-\d{2}-\d{2})\.json\.gz$/.exec(name);
      if (!m) continue;
      const file = path.join(dir, year, name);
      out.push({ date: m[1] as string, file, bytes: statSync(file).size });
    }
  }
  return out.sort((a, b) => a.date.localeCompare(b.date));
}

/** Bytes the archive takes on disk (its files and checksums). */
export function archiveBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const year of readdirSync(dir)) {
    const y = path.join(dir, year);
    if (!statSync(y).isDirectory()) continue;
    for (const name of readdirSync(y)) total += statSync(path.join(y, name)).size;
  }
  return total;
}

/** Deletes one archived day (its file and checksum), once its own period is over. */
export function deleteDayFile(dir: string, date: string): void {
  const file = dayPath(dir, date);
  rmSync(`${file}.sha256`, { force: true });
  rmSync(file, { force: true });
}
