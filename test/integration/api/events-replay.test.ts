import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, listenApi } from '../../../src/api/app.js';
import { businessDay, EventHub, MAX_REPLAY } from '../../../src/api/events.js';
import { createLogger } from '../../../src/core/log/index.js';
import { EVENTS_PER_SYNC, EventLog, Journal, openTerminalDatabase, type Db } from '../../../src/store/index.js';
import { openEvents, startTestDaemon, type Sse } from '../../helpers/daemon.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';
import { declinedSaleRow } from '../../helpers/store.js';

/**
 * The event stream's replay, on a real database and a real listener: `Last-Event-ID` gets the
 * business day's events after it, in order, then the live ones, none twice and none lost, even
 * while events are published during a long replay.
 */

let t: Awaited<ReturnType<typeof startTestDaemon>>;
const dir = tempDirForFile('omnipos-replay-');
let db: Db;
let now = new Date('2026-11-25T14:00:00Z');
let hub: EventHub;
/** The payment every alarm here names (the hub stamps its kind). */
let paymentId: number;
let api: Awaited<ReturnType<typeof listenApi>>;
beforeAll(async () => {
  t = await startTestDaemon();
  db = openTerminalDatabase(dir);
  const journal = new Journal(db);
  paymentId = declinedSaleRow(journal, now);
  hub = new EventHub(journal, () => now, new EventLog(db));
  const d = t.daemon;
  api = await listenApi(
    buildApp({
      engine: d.engine,
      journal: d.journal,
      outbox: d.outbox,
      token: t.token,
      log: createLogger({ level: 'silent' }),
      events: hub,
    }),
    '127.0.0.1',
    0,
  );
});
afterAll(async () => {
  await api?.close();
  db?.close();
  await t?.stop();
});

const alarm = (n: number) => ({ type: 'alarm' as const, id: paymentId, code: 'TEST', message: `alarm ${n}` });
const seqOf = (e: Sse): number => {
  if ('comment' in e) return -1;
  const body = JSON.parse(e.data) as { seq: number };
  expect(e.id).toBe(String(body.seq));
  return body.seq;
};
async function events(
  stream: Awaited<ReturnType<typeof openEvents>>,
  n: number,
): Promise<{ seq: number; message: string }[]> {
  const out: { seq: number; message: string }[] = [];
  while (out.length < n) {
    const e = await stream.next(20_000);
    if (!('comment' in e)) out.push({ seq: seqOf(e), message: (JSON.parse(e.data) as { message: string }).message });
  }
  return out;
}

describe('EventHub with an event log, and GET /v1/events with Last-Event-ID', () => {
  it('the business day is the host time zone\u2019s (America/Sao_Paulo): 02:59Z is still the day before', () => {
    expect(businessDay(new Date('2026-11-26T02:59:59Z'))).toBe('2026-11-25');
    expect(businessDay(new Date('2026-11-26T03:00:00Z'))).toBe('2026-11-26');
  });

  it('replays the day after the id given, then live; no header: no replay; a bad id: 400', async () => {
    for (let i = 1; i <= 5; i++) hub.publish(alarm(i));
    const plain = await openEvents(api.url, t.token);
    expect(plain.headers.get('x-omnipos-replay')).toBe('none');
    plain.close();
    const resumed = await openEvents(api.url, t.token, '2');
    expect(resumed.headers.get('x-omnipos-replay')).toBe('complete');
    expect(await events(resumed, 3)).toEqual([
      { seq: 3, message: 'alarm 3' },
      { seq: 4, message: 'alarm 4' },
      { seq: 5, message: 'alarm 5' },
    ]);
    hub.publish(alarm(6));
    expect(await events(resumed, 1)).toEqual([{ seq: 6, message: 'alarm 6' }]);
    resumed.close();
    const uptodate = await openEvents(api.url, t.token, '6');
    expect(uptodate.headers.get('x-omnipos-replay')).toBe('complete');
    hub.publish(alarm(7));
    expect(await events(uptodate, 1)).toEqual([{ seq: 7, message: 'alarm 7' }]);
    uptodate.close();
    for (const bad of ['abc', '-1', '1.5', '9'.repeat(16)]) {
      const res = await fetch(`${api.url}/v1/events`, {
        headers: { authorization: `Bearer ${t.token}`, 'last-event-id': bad },
      });
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'INVALID_FIELD', field: 'Last-Event-ID' } });
    }
  });

  it('a new business day forgets the days before: an id from yesterday gets today\u2019s events, called partial; an id never given, nothing', async () => {
    now = new Date('2026-11-26T03:00:01Z'); // 00:00:01 in São Paulo
    hub.publish(alarm(8));
    hub.publish(alarm(9));
    const stale = await openEvents(api.url, t.token, '3');
    expect(stale.headers.get('x-omnipos-replay')).toBe('partial');
    expect(await events(stale, 2)).toEqual([
      { seq: 8, message: 'alarm 8' },
      { seq: 9, message: 'alarm 9' },
    ]);
    stale.close();
    // Yesterday's last event seen: nothing of today was missed.
    const atMidnight = await openEvents(api.url, t.token, '7');
    expect(atMidnight.headers.get('x-omnipos-replay')).toBe('complete');
    expect(await events(atMidnight, 2)).toEqual([
      { seq: 8, message: 'alarm 8' },
      { seq: 9, message: 'alarm 9' },
    ]);
    atMidnight.close();
    const future = await openEvents(api.url, t.token, '500');
    expect(future.headers.get('x-omnipos-replay')).toBe('partial');
    future.close();
    expect((db.prepare('SELECT count(*) AS n FROM api_events').get() as { n: number }).n).toBe(2);
  });

  it('an event with a card number in it is sent live but never written: its seq is taken, the replay skips it and says partial', async () => {
    hub.publish({ type: 'alarm', id: paymentId, code: 'TEST', message: 'card 4111111111111111 seen' });
    hub.publish(alarm(11));
    expect(JSON.stringify(db.prepare('SELECT body FROM api_events').all())).not.toContain('4111111111111111');
    const resumed = await openEvents(api.url, t.token, '9');
    expect(resumed.headers.get('x-omnipos-replay')).toBe('partial');
    expect(await events(resumed, 1)).toEqual([{ seq: 11, message: 'alarm 11' }]);
    resumed.close();
  });

  it('a restarted hub over the same database goes on numbering past where it stopped (past any seq a power cut may take back)', () => {
    const again = new EventHub(new Journal(db), () => now, new EventLog(db));
    const seen: number[] = [];
    again.subscribe((e) => seen.push(e.seq));
    again.publish(alarm(12));
    again.flush();
    expect(seen).toEqual([11 + EVENTS_PER_SYNC + 1]);
    expect(MAX_REPLAY).toBeGreaterThanOrEqual(10_000);
  });

  it('a hub starts without the business day (no time-zone formatter before ready): the seq goes on, the day waits for the first event', () => {
    let asked = 0;
    const again = new EventHub(
      new Journal(db),
      () => {
        asked++;
        return now;
      },
      new EventLog(db),
    );
    expect(asked).toBe(0);
    const last = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'api_events'").get() as { seq: number }).seq;
    const seen: number[] = [];
    again.subscribe((e) => seen.push(e.seq));
    again.publish(alarm(99));
    again.flush();
    expect(seen).toEqual([last + 1]);
    expect(asked).toBeGreaterThan(0);
  });

  it('each event is written before it is sent live, in order (a kill has sent nothing it did not write)', async () => {
    const again = new EventHub(new Journal(db), () => now, new EventLog(db));
    const seen: number[] = [];
    again.subscribe((e) => seen.push(e.seq));
    const given = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'api_events'").get() as { seq: number })
      .seq;
    const written = (): number =>
      (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'api_events'").get() as { seq: number }).seq;
    const writtenWhenSent: number[] = [];
    again.subscribe(() => writtenWhenSent.push(written()));
    for (let i = 0; i < 5; i++) again.publish(alarm(200 + i));
    // one turn's events are written in one commit at its end, then sent
    await Promise.resolve();
    expect(seen).toEqual([1, 2, 3, 4, 5].map((k) => given + k));
    writtenWhenSent.forEach((w, i) => expect(w).toBeGreaterThanOrEqual(seen[i]!));
    expect(again.replay(seen[0] ?? 0)).toMatchObject({ outcome: 'complete' });
  });

  it('property: events published while a long replay is written come after it, in order; none lost, none twice (30 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 40 }),
        async (backlog, from, during) => {
          const start = (
            db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'api_events'").get() as { seq: number }
          ).seq;
          for (let i = 0; i < backlog; i++) hub.publish({ ...alarm(i), message: 'x'.repeat(200) });
          const after = start + Math.min(from, backlog);
          const stream = await openEvents(api.url, t.token, String(after));
          for (let i = 0; i < during; i++) hub.publish(alarm(i));
          const got = await events(stream, start + backlog + during - after);
          stream.close();
          const seqs = got.map((e) => e.seq);
          expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => after + 1 + i));
        },
      ),
      { numRuns: 30 },
    );
  }, 120_000);
});
