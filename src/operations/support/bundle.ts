import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describeConfig, type Config } from '../../config/index.js';
import type { Clock } from '../../core/index.js';
import { createLogger, scrubText, scrubValue } from '../../core/log/index.js';
import { Journal, listDayFiles, Outbox, type Db } from '../../store/index.js';
import { WebhookQueue } from '../alarms/index.js';
import { DayBook } from '../day/index.js';
import { tarArchive, type TarFile } from './tar.js';

export interface SupportBundleDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** omnipos's version (package.json). */
  version: string;
  /** What the running daemon's `GET /v1/health` answered, or why it could not be asked. */
  health: { reachable: true; body: unknown } | { reachable: false; reason: string };
  /** How much of the end of the log file to take, bytes (default 1 MiB). */
  logTailBytes?: number;
  /** Closed days whose report goes in too (`day-<date>.json`), from the database or the archive. */
  dates?: readonly string[];
}

/** The end of a file, from the first whole line; undefined when the file does not exist. */
function tail(file: string, bytes: number): string | undefined {
  if (!existsSync(file)) return undefined;
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - bytes);
    const buf = Buffer.alloc(size - start);
    readSync(fd, buf, 0, buf.length, start);
    const text = buf.toString('utf8');
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    closeSync(fd);
  }
}

const json = (v: unknown): string => `${JSON.stringify(scrubValue(v), null, 2)}\n`;

/** The configuration as support sees it: secrets by file, the webhook's address without its path (it may carry a token). */
function configView(config: Config): unknown {
  const view = JSON.parse(JSON.stringify(describeConfig(config))) as {
    values: { alarms?: { webhook?: { url: string } } };
  };
  const hook = view.values.alarms?.webhook;
  if (hook) hook.url = `${new URL(hook.url).origin}/[path hidden]`;
  return view;
}

/**
 * The files of a support bundle: configuration (secrets masked), versions, the daemon's health,
 * the outbox and the alarm deliveries, the end of the log, and the day's journal summary. Every
 * value goes through the logger's scrubber (sensitive keys redacted, PAN-shaped digits masked) as
 * a backstop: the store holds no card data, and secrets are never read into it.
 */
export function supportFiles(d: SupportBundleDeps): TarFile[] {
  const now = d.clock.now();
  const values = d.config.values;
  const journal = new Journal(d.db);
  const outbox = new Outbox(d.db);
  const day = new DayBook({
    db: d.db,
    journal,
    clock: d.clock,
    log: createLogger({ level: 'silent' }),
    environment: values.environment,
    terminalId: values.terminal.terminalId,
    archiveDir: path.join(values.stateDir, 'archive'),
  });
  const today = day.report();
  const { lines, ...summary } = today;
  const unfinished = lines.filter(
    (l) => l.outcome === 'in-progress' || l.outcome === 'needs-refund' || l.outcome === 'dead-letter',
  );
  const logFile = path.join(values.stateDir, 'logs', 'omnipos.log');
  const logs = tail(logFile, d.logTailBytes ?? 1024 * 1024);
  const sqlite = (d.db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  const files: TarFile[] = [
    {
      name: 'README.txt',
      data: `omnipos support bundle, made ${now.toISOString()} for terminal ${values.terminal.terminalId} (${values.environment}).
config.json    the effective configuration; secrets are shown as the file they come from, never their value
versions.json  omnipos, Node.js, SQLite, the operating system
health.json    what the running daemon's GET /v1/health answered (alarms included), or why it could not be asked
outbox.json    requests waiting for the acquirer and dead letters; alarm notifications not delivered yet
day.json       today's journal summary (counts, totals by method, brand and product) and what is not final
archive.json   the archive of closed days: each file, its size and checksum (<stateDir>/archive)
day-<date>.json  the report of each day asked for with --date, from the database or its archive file
logs.txt       the end of ${logFile}${logs === undefined ? ' (absent: the daemon logs to stdout, e.g. journalctl -u omnipos)' : ''}
No card data, token or key is in it: the store holds none, and every value was scrubbed again.
`,
    },
    { name: 'config.json', data: json(configView(d.config)) },
    {
      name: 'versions.json',
      data: json({
        omnipos: d.version,
        node: process.versions.node,
        v8: process.versions.v8,
        sqlite,
        os: { type: os.type(), release: os.release(), platform: os.platform(), arch: os.arch() },
        madeAt: now.toISOString(),
      }),
    },
    { name: 'health.json', data: json(d.health) },
    {
      name: 'outbox.json',
      data: json({ depth: outbox.depth(), tasks: outbox.open(), alarmWebhooks: new WebhookQueue(d.db).pending() }),
    },
    { name: 'day.json', data: json({ ...summary, unfinished }) },
    { name: 'archive.json', data: json(archiveIndex(d.db, path.join(values.stateDir, 'archive'))) },
    ...(d.dates ?? []).map((date) => ({ name: `day-${date}.json`, data: json(day.report(date)) })),
    {
      name: 'logs.txt',
      data:
        logs === undefined
          ? `no log file at ${logFile}: the daemon logs to stdout (under systemd: journalctl -u omnipos)\n`
          : scrubText(logs),
    },
  ];
  return files.map((f) => ({ ...f, mtime: now }));
}

/** The archive's files (date, bytes) beside what the database recorded of each (checksum, payments, when). */
function archiveIndex(db: Db, dir: string): unknown {
  const recorded = db
    .prepare('SELECT business_date AS date, sha256, bytes, payments, archived_at, deleted_at FROM day_archives')
    .all() as { date: string }[];
  return { dir, files: listDayFiles(dir), recorded };
}

/** The bundle as one `.tar.gz`. */
export function supportBundle(d: SupportBundleDeps): Buffer {
  return gzipSync(tarArchive(supportFiles(d)));
}
