import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { pino, type DestinationStream } from 'pino';

/**
 * Where the daemon's lines go (docs/operations.md, "Logs bounded"): standard output (journald under
 * systemd) and, unless `log.file` is off, `<stateDir>/logs/omnipos.log` with a size cap and rotation;
 * bursts of the same low-level lines rate-limited before either.
 *
 * The API, for whoever logs refusals or device faults (one line per event is fine: the limit is here):
 * - {@link rotatingFile}: a file that never grows past `maxBytes`; at the cap it becomes `<file>.1`
 *   (`.1` → `.2` …, the oldest beyond `keep` deleted) and a new one starts. Disk: at most
 *   (keep + 1) × maxBytes, plus one line.
 * - {@link rateLimited}: more than `maxPerSecond` lines in one second, the info/debug/trace lines past
 *   it are dropped; warn, error and fatal never are. The next second's first line is preceded by one
 *   warn line saying how many were dropped (`"dropped": N`).
 * - {@link daemonDestination}: both, fanned out to standard output and the file.
 */

export interface RotatingFileOptions {
  file: string;
  maxBytes: number;
  /** Rotated files kept (`.1` … `.keep`). */
  keep: number;
}

/**
 * A log file with a size cap: rotated at `maxBytes`, `keep` old files kept. Each line is written at
 * once (pino's synchronous destination, a few microseconds: no fsync): the rotation never races a
 * pending write, and the lines before a SIGKILL are in the file.
 */
export function rotatingFile(o: RotatingFileOptions): DestinationStream & { flushSync(): void; end(): void } {
  const boom = pino.destination({ dest: o.file, append: true, mkdir: true, sync: true });
  let size = existsSync(o.file) ? statSync(o.file).size : 0;
  const rotate = (): void => {
    rmSync(`${o.file}.${o.keep}`, { force: true });
    for (let i = o.keep - 1; i >= 1; i--)
      if (existsSync(`${o.file}.${i}`)) renameSync(`${o.file}.${i}`, `${o.file}.${i + 1}`);
    if (o.keep > 0) renameSync(o.file, `${o.file}.1`);
    else rmSync(o.file, { force: true });
    boom.reopen();
    size = 0;
  };
  return {
    write(line: string): void {
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > o.maxBytes) {
        try {
          rotate();
        } catch {
          // A rotation that failed (the disk): keep writing where we are rather than lose the line.
        }
      }
      size += bytes;
      boom.write(line);
    },
    flushSync: () => boom.flushSync(),
    end: () => boom.end(),
  };
}

/** pino's numeric level at the start of a JSON line (30 when it cannot tell). */
function levelOf(line: string): number {
  const m = /^\{"level":(\d+)/.exec(line);
  return m ? Number(m[1]) : 30;
}

const WARN = 40;

/** Lines past `maxPerSecond` in one second dropped, below warn only; then one line saying how many. */
export function rateLimited(
  inner: DestinationStream,
  o: { maxPerSecond: number; now?: () => number },
): DestinationStream & { dropped(): number } {
  const now = o.now ?? Date.now;
  let second = -1;
  let count = 0;
  let droppedNow = 0;
  let droppedTotal = 0;
  return {
    write(line: string): void {
      const s = Math.floor(now() / 1000);
      if (s !== second) {
        if (droppedNow > 0)
          inner.write(
            `${JSON.stringify({ level: WARN, time: now(), dropped: droppedNow, msg: `${droppedNow} log lines below warn dropped in one second (log.maxLinesPerSecond)` })}\n`,
          );
        second = s;
        count = 0;
        droppedNow = 0;
      }
      count++;
      if (count > o.maxPerSecond && levelOf(line) < WARN) {
        droppedNow++;
        droppedTotal++;
        return;
      }
      inner.write(line);
    },
    dropped: () => droppedTotal,
  };
}

/** The daemon's destination: standard output and (unless `file` is undefined) the rotating file, rate-limited. */
export function daemonDestination(o: {
  file?: RotatingFileOptions | undefined;
  maxLinesPerSecond: number;
  stdout?: DestinationStream;
}): DestinationStream {
  const out = o.stdout ?? process.stdout;
  const file = o.file ? rotatingFile(o.file) : undefined;
  return rateLimited(
    {
      write(line: string): void {
        out.write(line);
        file?.write(line);
      },
    },
    { maxPerSecond: o.maxLinesPerSecond },
  );
}
