import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { businessDay } from '../../src/api/events.js';
import { STREAMS_IN_TOTAL, STREAMS_PER_CLIENT } from '../../src/api/stream-caps.js';
import { EventLog } from '../../src/store/event-log.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';

/**
 * The event stream under load, on a real daemon (issue 31): clients that reconnect with an old
 * `Last-Event-ID` over a 20,000-event day and never read must not make the daemon read the day into
 * memory (the replay is read from SQLite a page at a time, as the client takes it), and no client
 * may hold more than its share of streams, nor all clients together more than the terminal serves.
 */
const DAY_EVENTS = 20_000;
let t: TestDaemon;
const open: ClientRequest[] = [];

beforeAll(async () => {
  t = await startTestDaemon({ prefix: 'omnipos-sec-stream-' });
  // A busy day's events, as the hub logs them (each ~200 bytes of JSON).
  const at = new Date().toISOString();
  t.daemon.db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO api_events (business_day, at, body)
       SELECT ?, ?, json_object('type', 'state', 'id', i, 'state', 'authorizing', 'seq', 0, 'at', ?,
                                'kind', 'card', 'status', 'pending', 'note', printf('%.80c', 'x')) FROM n`,
    )
    .run(DAY_EVENTS, businessDay(new Date()), at, at);
}, 60_000);
afterEach(() => {
  for (const r of open.splice(0)) r.destroy();
});
afterAll(async () => {
  await t?.stop();
});

/** Opens `GET /v1/events` from `from` and never reads its body; resolves with the answer's head. */
function stream(from: string, lastEventId?: string): Promise<IncomingMessage> {
  const url = new URL(t.apiUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/v1/events',
        localAddress: from,
        agent: false,
        headers: {
          authorization: `Bearer ${t.token}`,
          ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}),
        },
      },
      (res) => {
        res.pause();
        resolve(res);
      },
    );
    req.on('error', reject);
    req.end();
    open.push(req);
  });
}

/** Reads a refused stream's JSON answer. */
async function body(res: IncomingMessage): Promise<{ error?: { code?: string; message?: string } }> {
  res.resume();
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: { code?: string; message?: string } };
}

/** Tries until the daemon has seen the streams closed (a close reaches it asynchronously). */
async function eventually(from: string): Promise<IncomingMessage> {
  for (let i = 0; i < 200; i++) {
    const res = await stream(from);
    if (res.statusCode === 200) return res;
    await body(res);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no stream from ${from}`);
}

describe('the event stream under load', () => {
  it('10 clients that reconnect at the day’s start and never read: the replay is read a page at a time, never the day', async () => {
    const reads: number[] = [];
    const original = EventLog.prototype.since;
    const since = vi.spyOn(EventLog.prototype, 'since').mockImplementation(function (this: EventLog, ...args) {
      const rows = original.apply(this, args);
      reads.push(rows.length);
      return rows;
    });
    const heads: [number | undefined, unknown][] = [];
    try {
      for (let i = 0; i < 10; i++) {
        const res = await stream(`127.0.1.${i + 1}`, '0');
        heads.push([res.statusCode, res.headers['x-omnipos-replay']]);
      }
    } finally {
      since.mockRestore();
    }
    expect(reads.length).toBeGreaterThan(0);
    // A page at a time (as many as the sockets' buffers take), never the 20,000 events at once.
    expect(Math.max(...reads)).toBeLessThanOrEqual(128);
    // The whole day is replayed: exactly 20,000 events after the id is complete, not past the bound.
    expect(heads).toEqual(Array(10).fill([200, 'complete']));
  });

  it('a client that reads gets the whole day, in order, then the live events', async () => {
    const res = await stream('127.0.2.1', String(DAY_EVENTS - 300));
    expect(res.headers['x-omnipos-replay']).toBe('complete');
    res.resume();
    let text = '';
    res.setEncoding('utf8');
    for await (const chunk of res) {
      text += chunk as string;
      if ((text.match(/^id: /gm) ?? []).length >= 300) break;
    }
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(Array.from({ length: 300 }, (_, i) => DAY_EVENTS - 299 + i));
  });

  it(`${STREAMS_PER_CLIENT} streams per client: the next is refused 429 TOO_MANY_STREAMS with Retry-After, another client is not`, async () => {
    const held: IncomingMessage[] = [];
    for (let i = 0; i < STREAMS_PER_CLIENT; i++) held.push(await stream('127.0.3.1'));
    expect(held.map((r) => r.statusCode)).toEqual(Array(STREAMS_PER_CLIENT).fill(200));
    const refused = await stream('127.0.3.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect((await body(refused)).error?.code).toBe('TOO_MANY_STREAMS');
    expect((await stream('127.0.3.2')).statusCode).toBe(200);
    // A stream closed gives its place back.
    held[0]?.destroy();
    expect((await eventually('127.0.3.1')).statusCode).toBe(200);
  });

  it(`${STREAMS_IN_TOTAL} streams in all: the next is refused whoever asks, and a closed one frees a place`, async () => {
    const clients = Math.ceil(STREAMS_IN_TOTAL / STREAMS_PER_CLIENT);
    // The places of the streams closed by the test before are given back asynchronously.
    const held: IncomingMessage[] = [];
    for (let c = 0; c < clients; c++)
      for (let i = 0; i < STREAMS_PER_CLIENT; i++) held.push(await eventually(`127.0.4.${c + 1}`));
    const refused = await stream('127.0.5.1');
    expect(refused.statusCode).toBe(429);
    const answer = await body(refused);
    expect(answer.error).toMatchObject({ code: 'TOO_MANY_STREAMS' });
    expect(answer.error?.message).toMatch(/the terminal holds 64 event streams/);
    // The API itself still answers while the streams are held.
    const health = await fetch(`${t.apiUrl}/v1/health`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(health.status).toBe(200);
    held[0]?.destroy();
    expect((await eventually('127.0.5.1')).statusCode).toBe(200);
  });
});
