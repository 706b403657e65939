import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TelemetryOutbox } from '../../../src/fleet/telemetry-outbox.js';
import { MIGRATIONS, openDatabase } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { useTempStores } from '../../helpers/store.js';

const tempDir = useTempDirs();
const tempStore = useTempStores();

describe('the telemetry outbox (SQLite, apart from the money outbox)', () => {
  it('keeps messages in order across a reopen, once per id, and forgets what was delivered', () => {
    const file = path.join(tempDir(), 'omnipos.db');
    let db = openDatabase({ file, migrations: MIGRATIONS });
    let box = new TelemetryOutbox(db);
    for (let i = 1; i <= 5; i++)
      expect(
        box.add({ msgId: `m${i}`, topic: 't/payments', payload: { id: `m${i}`, n: i }, qos: 1, retain: false }),
      ).toBe(true);
    expect(box.add({ msgId: 'm3', topic: 't/payments', payload: { id: 'm3', n: 99 }, qos: 1, retain: false })).toBe(
      false,
    );
    db.close();
    db = openDatabase({ file, migrations: MIGRATIONS });
    box = new TelemetryOutbox(db);
    const all = box.next(10);
    expect(all.map((m) => m.msgId)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(JSON.parse(all[2]!.payload)).toEqual({ id: 'm3', n: 3 });
    box.delivered(all[0]!.seq);
    box.delivered(all[1]!.seq);
    expect(box.next(2).map((m) => m.msgId)).toEqual(['m3', 'm4']);
    expect(box.counts()).toMatchObject({ queued: 3, dropped: 0 });
    db.close();
  });

  it('drops the oldest past its bound instead of growing without end', () => {
    const db = tempStore();
    const box = new TelemetryOutbox(db, 100);
    for (let i = 1; i <= 130; i++) box.add({ msgId: `m${i}`, topic: 't', payload: {}, qos: 1, retain: false });
    expect(box.counts()).toMatchObject({ queued: 100, dropped: 30 });
    expect(box.next(1)[0]!.msgId).toBe('m31');
    db.close();
  });

  it('keeps seq growing after the queue empties (consumers check the order by it)', () => {
    const db = tempStore();
    const box = new TelemetryOutbox(db);
    box.add({ msgId: 'a', topic: 't', payload: {}, qos: 1, retain: false });
    box.add({ msgId: 'b', topic: 't', payload: {}, qos: 1, retain: false });
    for (const m of box.next(10)) box.delivered(m.seq);
    box.add({ msgId: 'c', topic: 't', payload: {}, qos: 1, retain: false });
    expect(box.next(1)[0]!.seq).toBe(3);
    db.close();
  });

  it('never queues a message again once delivered (a payment says "confirmed" twice: confirming, confirmed)', () => {
    const db = tempStore();
    let now = new Date('2026-11-25T12:00:00Z');
    const box = new TelemetryOutbox(db, 1000, () => now);
    expect(box.add({ msgId: 'T-p1-confirmed', topic: 't', payload: {}, qos: 1, retain: false })).toBe(true);
    box.delivered(box.next(1)[0]!.seq);
    expect(box.add({ msgId: 'T-p1-confirmed', topic: 't', payload: {}, qos: 1, retain: false })).toBe(false);
    expect(box.next(10)).toEqual([]);
    // Two days on, delivered rows are pruned.
    now = new Date('2026-11-28T12:00:00Z');
    box.add({ msgId: 'other', topic: 't', payload: {}, qos: 1, retain: false });
    expect(db.prepare('SELECT msg_id FROM telemetry_outbox').all()).toEqual([{ msg_id: 'other' }]);
    db.close();
  });
});
