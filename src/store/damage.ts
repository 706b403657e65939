import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import Database from './sqlite.js';
import { OmniposError } from '../core/index.js';

/** The marker a damaged database leaves in the state directory: while it exists nothing opens a new database there. */
export const DAMAGE_MARKER = 'database-damaged.json';

/** What the marker holds (and `omnipos diag` shows). */
export interface DamageRecord {
  /** When the damage was found (ISO). */
  at: string;
  /** Why: the check that failed and its words. */
  reason: string;
  /** The folder that now holds the damaged file, with its WAL and shared-memory files. */
  keptIn: string;
  /** The files moved there. */
  files: string[];
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
const WAL_VERSION = 3007000;

function readHead(file: string, size: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(size);
    const n = readSync(fd, buf, 0, size, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * The WAL's 32-byte header (sqlite.org/fileformat2.html §4.1): magic, format version 3007000 and
 * the checksum of its first 24 bytes. SQLite silently ignores a WAL whose header does not check,
 * which would drop every transaction committed in it since the last checkpoint: such a WAL is damage.
 */
export function walHeaderProblem(head: Buffer): string | undefined {
  if (head.length === 0) return undefined; // an empty WAL: nothing committed in it
  if (head.length < 32) return `the WAL is ${head.length} bytes, shorter than its 32-byte header`;
  const magic = head.readUInt32BE(0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE)
    return `the WAL's magic number is ${magic.toString(16)}, not 377f0682/377f0683`;
  const version = head.readUInt32BE(4);
  if (version !== WAL_VERSION) return `the WAL's format version is ${version}, not ${WAL_VERSION}`;
  const big = magic === WAL_MAGIC_BE;
  let s0 = 0;
  let s1 = 0;
  for (let i = 0; i < 24; i += 8) {
    const x0 = big ? head.readUInt32BE(i) : head.readUInt32LE(i);
    const x1 = big ? head.readUInt32BE(i + 4) : head.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  if (s0 !== head.readUInt32BE(24) || s1 !== head.readUInt32BE(28)) return "the WAL header's checksum does not match";
  return undefined;
}

/**
 * Checks a database file before the daemon writes to it: the header, the WAL's header, and
 * `PRAGMA quick_check` through a read-only connection (it never checkpoints the WAL into the file,
 * so a damaged file is read, never written). Returns the problem, or undefined when sound or absent.
 */
export function databaseProblem(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const size = statSync(file).size;
  if (size > 0) {
    const head = readHead(file, 100);
    if (head.length < 100 || !head.subarray(0, 16).equals(SQLITE_HEADER))
      return 'the file does not start with the SQLite header';
  }
  const wal = `${file}-wal`;
  if (existsSync(wal)) {
    const problem = walHeaderProblem(readHead(wal, 32));
    if (problem) return problem;
  }
  if (size === 0 && !existsSync(wal)) return undefined;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const rows = db.pragma('quick_check(20)') as { quick_check: string }[];
    const words = rows.map((r) => r.quick_check.replace(/\s*\n\s*/g, ' '));
    if (words.length !== 1 || words[0] !== 'ok') return `quick_check: ${words.join('; ')}`;
    return undefined;
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') throw e;
    return `${code ? `${code}: ` : ''}${(e as Error).message}`;
  } finally {
    db?.close();
  }
}

/** The damage recorded in `stateDir`, if any. */
export function readDamage(stateDir: string): DamageRecord | undefined {
  const marker = path.join(stateDir, DAMAGE_MARKER);
  if (!existsSync(marker)) return undefined;
  try {
    return JSON.parse(readFileSync(marker, 'utf8')) as DamageRecord;
  } catch {
    return { at: '?', reason: `the marker ${marker} itself is unreadable`, keptIn: '?', files: [] };
  }
}

/**
 * Moves the damaged file with its WAL and shared-memory files into `damaged-<time>/` (a rename in
 * the same directory: nothing is copied, nothing rewritten) and writes the marker that keeps any
 * new database from being created in their place.
 */
export function setAside(file: string, reason: string, now: Date): DamageRecord {
  const stateDir = path.dirname(file);
  const keptIn = path.join(stateDir, `damaged-${now.toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(keptIn, { recursive: true, mode: 0o700 });
  const files: string[] = [];
  for (const suffix of ['', '-wal', '-shm']) {
    const from = `${file}${suffix}`;
    if (!existsSync(from)) continue;
    const to = path.join(keptIn, path.basename(from));
    renameSync(from, to);
    files.push(to);
  }
  const record: DamageRecord = { at: now.toISOString(), reason, keptIn, files };
  writeFileSync(path.join(stateDir, DAMAGE_MARKER), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  return record;
}

/** The refusal every opener of the terminal's database raises while the marker is there. */
export function damagedError(stateDir: string, record: DamageRecord): OmniposError {
  return new OmniposError(
    'STORE_DAMAGED',
    `the database was found damaged at ${record.at} (${record.reason}) and kept in ${record.keptIn}; nothing is sold until a technician acts: see omnipos diag`,
    { stateDir, keptIn: record.keptIn, reason: record.reason, marker: path.join(stateDir, DAMAGE_MARKER) },
  );
}
