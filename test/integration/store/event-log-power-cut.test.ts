/**
 * The replay after a power cut (issue 35): an event is synced with the next durable commit, so a
 * power cut can take back events the stream already sent. A client that reconnects with one of
 * those seqs, or from before them, must be told `partial` (read GET /v1/payments), never
 * `complete`. A killed process loses nothing (the WAL is in the page cache) and a clean stop syncs
 * everything, so neither makes a replay partial.
 *
 * The power cut is played on real SQLite files: the database and its WAL are copied at a durable
 * point (what the flash holds), more events are sent, and the files are put back before the next
 * start, on another boot (a power cut always means one).
 */
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/api/events.js';
import { EVENTS_PER_SYNC, EventLog, openTerminalDatabase, type Db } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const tempDir = useTempDirs();
const now = new Date('2026-11-25T14:00:00Z');
const FILES = ['omnipos.db', 'omnipos.db-wal'];

/** A daemon's start on `dir`: its database, its event log (on boot `boot`) and its hub. */
function start(dir: string, boot: string): { db: Db; log: EventLog; hub: EventHub } {
  const db = openTerminalDatabase(dir);
  const log = new EventLog(db, { bootId: boot });
  return { db, log, hub: new EventHub(undefined, () => now, log) };
}

/** Publishes `n` alarms; returns their seqs as a subscriber got them (at the end of the event loop's turn). */
async function publish(hub: EventHub, n: number): Promise<number[]> {
  const seen: number[] = [];
  const stop = hub.subscribe((e) => seen.push(e.seq));
  for (let i = 0; i < n; i++) hub.publish({ type: 'alarm', id: 1, code: 'TEST', message: `alarm ${i}` });
  await new Promise((resolve) => setImmediate(resolve));
  stop();
  return seen;
}

/** The seqs a replay after `lastEventId` sends, and what it says of itself. */
function replay(hub: EventHub, lastEventId: number): { outcome: string; seqs: number[] } {
  const r = hub.replay(lastEventId);
  return { outcome: r.outcome, seqs: [...r.pages()].flat().map((e) => Number(e.seq)) };
}

/** What the flash holds now: the database synced (a full checkpoint) and both files copied aside. */
function snapshot(db: Db, dir: string): string {
  db.pragma('wal_checkpoint(FULL)');
  const aside = tempDir('omnipos-flash-');
  for (const f of FILES) if (existsSync(path.join(dir, f))) copyFileSync(path.join(dir, f), path.join(aside, f));
  return aside;
}

/** The power cut: the process's files are replaced by what the flash held (the shared memory is rebuilt). */
function powerCut(db: Db, dir: string, flash: string): void {
  db.close();
  for (const f of [...FILES, 'omnipos.db-shm']) rmSync(path.join(dir, f), { force: true });
  for (const f of FILES) if (existsSync(path.join(flash, f))) copyFileSync(path.join(flash, f), path.join(dir, f));
}

describe('the replay after a restart says partial exactly when a power cut may have taken events back', () => {
  it('a power cut took back seqs 4–13 after they were sent: a client holding 8, or 3, is told partial; one holding a later seq, complete', async () => {
    const dir = tempDir('omnipos-power-cut-');
    const before = start(dir, 'boot-1');
    expect(await publish(before.hub, 3)).toEqual([1, 2, 3]);
    const flash = snapshot(before.db, dir);
    expect(await publish(before.hub, 10)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    powerCut(before.db, dir, flash);

    const after = start(dir, 'boot-2');
    // Seq 8 was sent and is gone, with 9–13 after it: nothing can replay them.
    expect(replay(after.hub, 8)).toEqual({ outcome: 'partial', seqs: [] });
    // A client that got 3 missed 4–13, which are gone too.
    expect(replay(after.hub, 3)).toEqual({ outcome: 'partial', seqs: [] });
    const next = await publish(after.hub, 2);
    expect(next).toEqual([3 + EVENTS_PER_SYNC + 1, 3 + EVENTS_PER_SYNC + 2]);
    expect(replay(after.hub, 8)).toEqual({ outcome: 'partial', seqs: next });
    // After the lost seqs nothing is missing.
    expect(replay(after.hub, next[0] ?? 0)).toEqual({ outcome: 'complete', seqs: [next[1]] });
    after.db.close();

    // A later start on the same boot, the lost range still in the day: still partial, never complete.
    const again = start(dir, 'boot-2');
    expect(replay(again.hub, 8).outcome).toBe('partial');
    again.db.close();
  });

  it('a start that cannot write after the power cut (a full disk) gives the lost seqs again: a client holding one is told partial', async () => {
    const dir = tempDir('omnipos-power-cut-full-');
    const before = start(dir, 'boot-1');
    await publish(before.hub, 3);
    const flash = snapshot(before.db, dir);
    await publish(before.hub, 10);
    powerCut(before.db, dir, flash);
    const db = openTerminalDatabase(dir);
    // the start's one durable commit fails, as on a full disk; the events' own rows still go in
    db.exec("CREATE TEMP TRIGGER full_disk BEFORE INSERT ON api_event_run BEGIN SELECT RAISE(FAIL, 'disk full'); END");
    const hub = new EventHub(undefined, () => now, new EventLog(db, { bootId: 'boot-2' }));
    // Seqs 4–9 are given again, to other events: the client holding the lost 8 missed what came after 3.
    expect(await publish(hub, 6)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(replay(hub, 8)).toEqual({ outcome: 'partial', seqs: [9] });
    expect(replay(hub, 3).outcome).toBe('partial');
    // A seq past the ones that may have been taken back means one event only: after it, complete.
    const later = await publish(hub, EVENTS_PER_SYNC);
    expect(replay(hub, later.at(-2)!)).toEqual({ outcome: 'complete', seqs: [later.at(-1)] });
    db.close();
  });

  // s13-guards noticed it: with the database refusing writes, an event is sent live with the next seq, and the
  // database, writing again, gave that same seq to another event. Fails on c7c37be (the seqs after the failure
  // were 4, 5 again).
  it('a database that refuses writes, then writes again: a seq sent live is never given to another event, and a replay over it says partial', async () => {
    const dir = tempDir('omnipos-live-only-');
    const { db, hub } = start(dir, 'boot-1');
    const last = (await publish(hub, 3)).at(-1) as number;
    db.exec("CREATE TEMP TRIGGER failing BEFORE INSERT ON api_events BEGIN SELECT RAISE(FAIL, 'disk I/O error'); END");
    const live = await publish(hub, 2);
    expect(live).toEqual([last + 1, last + 2]);
    db.exec('DROP TRIGGER failing');
    const after = await publish(hub, 2);
    expect(after.every((s) => s > last + 2)).toBe(true);
    // A client holding the first live seq missed the second, which no log kept: partial, never complete.
    expect(replay(hub, last + 1).outcome).toBe('partial');
    expect(replay(hub, last).outcome).toBe('partial');
    // One holding the last live seq missed only what the log kept: complete.
    expect(replay(hub, last + 2)).toEqual({ outcome: 'complete', seqs: after });
    db.close();
  });

  it('a killed process (same boot) lost nothing: the replay after it is complete, with every event', async () => {
    const dir = tempDir('omnipos-kill-');
    const before = start(dir, 'boot-1');
    await publish(before.hub, 13);
    before.db.close(); // no stop(): the run is not clean, but the machine did not go down
    const after = start(dir, 'boot-1');
    expect(replay(after.hub, 8)).toEqual({ outcome: 'complete', seqs: [9, 10, 11, 12, 13] });
    after.db.close();
  });

  it('a clean stop syncs every event: a reboot after it loses nothing, the replay is complete', async () => {
    const dir = tempDir('omnipos-clean-');
    const before = start(dir, 'boot-1');
    await publish(before.hub, 5);
    before.log.stop();
    // An event after the stop (a part that closes later) is synced on its own.
    await publish(before.hub, 1);
    const flash = snapshot(before.db, dir);
    powerCut(before.db, dir, flash);
    const after = start(dir, 'boot-2');
    expect(replay(after.hub, 3)).toEqual({ outcome: 'complete', seqs: [4, 5, 6] });
    after.db.close();
  });

  it('a boot that cannot be told (no boot id) after an unclean stop is taken as a power cut: partial', async () => {
    const dir = tempDir('omnipos-unknown-boot-');
    const before = start(dir, '');
    await publish(before.hub, 5);
    before.db.close();
    const after = start(dir, '');
    expect(replay(after.hub, 3).outcome).toBe('partial');
    after.db.close();
  });
});
