/**
 * Batched event commits (issue 35, flash wear): the hub holds the events published outside a
 * transaction to the end of the turn and writes them in one commit. Held events are written before
 * any transaction on the database begins (EventLog.flushBefore), on a real SQLite file: an event
 * held from before a transaction that rolls back is neither lost nor sent twice, and one published
 * inside that transaction is never sent.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/api/events.js';
import { EventLog, openTerminalDatabase } from '../../../src/store/index.js';

const alarm = (message: string) => ({ type: 'alarm' as const, id: 1, code: 'TEST', message });

function hub() {
  const db = openTerminalDatabase(mkdtempSync(path.join(tmpdir(), 'omnipos-event-batch-')));
  const events = new EventHub(undefined, () => new Date('2026-11-30T12:00:00Z'), new EventLog(db));
  const heard: string[] = [];
  events.subscribe((e) => heard.push(String((e as { message?: string }).message)));
  const rows = (): string[] =>
    (db.prepare('SELECT body FROM api_events ORDER BY seq').all() as { body: string }[]).map(
      (r) => (JSON.parse(r.body) as { message: string }).message,
    );
  return { db, events, heard, rows };
}

describe('batched event commits: held events are written before a transaction begins', () => {
  it('events of one turn are held, then written in one commit and sent in order', async () => {
    const { events, heard, rows } = hub();
    events.publish(alarm('a'));
    events.publish(alarm('b'));
    expect(heard).toEqual([]);
    expect(rows()).toEqual([]);
    await Promise.resolve();
    expect(rows()).toEqual(['a', 'b']);
    expect(heard).toEqual(['a', 'b']);
  });

  it('an event held from before a transaction that rolls back is kept and sent once; the one published inside it is never sent', async () => {
    const { db, events, heard, rows } = hub();
    events.publish(alarm('before'));
    expect(() =>
      db.transaction(() => {
        db.prepare("INSERT INTO counters (name, value) VALUES ('t', '1')").run();
        events.publish(alarm('inside'));
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    events.publish(alarm('after'));
    await new Promise((r) => setImmediate(r));
    expect(rows()).toEqual(['before', 'after']);
    expect(heard).toEqual(['before', 'after']);
  });

  it('an event held from before a transaction that commits, and one published inside it: both kept and sent once, in order', async () => {
    const { db, events, heard, rows } = hub();
    events.publish(alarm('before'));
    db.transaction(() => events.publish(alarm('inside'))).immediate();
    await new Promise((r) => setImmediate(r));
    expect(rows()).toEqual(['before', 'inside']);
    expect(heard).toEqual(['before', 'inside']);
  });

  it('a replay writes what is held first', () => {
    const { events, rows } = hub();
    events.publish(alarm('held'));
    expect(events.replay(0).outcome).toBe('complete');
    expect(rows()).toEqual(['held']);
  });
});
