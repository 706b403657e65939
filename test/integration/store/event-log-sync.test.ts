/**
 * The event log's writes on a real SQLite file (issue 35, flash wear): an event is a copy of what
 * the journal holds, so it costs no fsync of its own; a killed process loses none; a start moves
 * the seq past any a power cut may have taken back. The fsyncs are counted by strace on a child
 * process (the system calls themselves, not our reading of the code).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENTS_PER_SYNC, EventLog, openTerminalDatabase } from '../../../src/store/index.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const hasStrace = spawnSync('strace', ['-V']).status === 0;

/** A child that opens the database in `dir`, appends `n` events and, with `kill`, dies by SIGKILL before closing. */
function child(dir: string, n: number, kill: boolean): string {
  const file = path.join(dir, 'child.ts');
  writeFileSync(
    file,
    `import { EventLog, openTerminalDatabase } from ${JSON.stringify(path.join(ROOT, 'src/store/index.ts'))};
const db = openTerminalDatabase(${JSON.stringify(dir)});
const log = new EventLog(db);
for (let i = 0; i < ${n}; i++) log.append('2026-11-29', new Date(0).toISOString(), { type: 'alarm', message: 'event ' + i });
${kill ? "process.kill(process.pid, 'SIGKILL');" : 'db.close();'}
`,
  );
  return file;
}

describe('the event log: no fsync of its own per event, nothing lost to a kill, no seq given twice', () => {
  it.runIf(hasStrace)(
    '200 events make at most 200/EVENTS_PER_SYNC + 3 fsyncs of the WAL (one each before): the first seq ever and the checkpoint at close sync too',
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-event-sync-'));
      openTerminalDatabase(dir).close(); // migrations done before the count
      const trace = path.join(dir, 'trace.txt');
      const run = spawnSync(
        'strace',
        [
          '-f',
          '-qq',
          '-y',
          '-e',
          'trace=fsync,fdatasync',
          '-o',
          trace,
          process.execPath,
          '--import',
          'tsx',
          child(dir, 200, false),
        ],
        { cwd: ROOT, stdio: 'pipe' },
      );
      expect(run.status, run.stderr.toString()).toBe(0);
      const walSyncs = readFileSync(trace, 'utf8')
        .split('\n')
        .filter((l) => /f(data)?sync\(\d+<[^>]*omnipos\.db-wal>/.test(l)).length;
      expect(walSyncs).toBeGreaterThan(0);
      expect(walSyncs).toBeLessThanOrEqual(Math.ceil(200 / EVENTS_PER_SYNC) + 3);
    },
    60_000,
  );

  it('a process killed after appending keeps every event; the next start gives seqs past any a power cut could take back', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-event-kill-'));
    const run = spawnSync(process.execPath, ['--import', 'tsx', child(dir, 100, true)], { cwd: ROOT, stdio: 'pipe' });
    expect(run.signal).toBe('SIGKILL');
    const db = openTerminalDatabase(dir);
    const count = db.prepare('SELECT count(*) AS n, max(seq) AS last FROM api_events').get() as {
      n: number;
      last: number;
    };
    expect(count).toEqual({ n: 100, last: 100 });
    const log = new EventLog(db);
    const next = log.append('2026-11-29', new Date(0).toISOString(), { type: 'alarm', message: 'after' });
    expect(next).toBe(100 + EVENTS_PER_SYNC + 1);
    db.close();
  }, 60_000);
});
