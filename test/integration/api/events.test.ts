import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, listenApi } from '../../../src/api/app.js';
import { EventHub } from '../../../src/api/events.js';
import { createLogger } from '../../../src/core/log/index.js';
import { declinedSaleRow } from '../../helpers/store.js';
import { openEvents, startTestDaemon, type Sse } from '../../helpers/daemon.js';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(async () => {
  await t?.stop();
});

type Ev = { type: string; seq: number; id: number; state?: string; status?: string; kind?: string; qrCode?: string };
const data = (e: Sse): Ev => {
  if ('comment' in e) throw new Error(`expected an event, got the comment ${e.comment}`);
  const parsed = JSON.parse(e.data) as Ev;
  expect(e.event).toBe(parsed.type);
  expect(e.id).toBe(String(parsed.seq));
  return parsed;
};

async function post(path: string, body: unknown) {
  const res = await request(`${t.apiUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.body.json()) as { id: number; qrCode?: string };
}

async function untilIdle() {
  for (let i = 0; i < 400 && t.busy; i++) await new Promise((r) => setTimeout(r, 25));
}

describe('GET /v1/events over loopback', () => {
  it('a card sale: every state change in order, with its status, the same steps the journal kept', async () => {
    const stream = await openEvents(t.apiUrl, t.token);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await stream.next()).toEqual({ comment: 'omnipos events' });
    const sale = await post('/v1/payments', { amount: 2510, method: 'credit' });
    const seen: Ev[] = [];
    for (;;) {
      const e = data(await stream.next(15_000));
      if (e.id !== sale.id) continue;
      seen.push(e);
      if (e.type === 'state' && ['confirmed', 'declined', 'failed', 'cancelled', 'undone'].includes(e.status ?? ''))
        break;
    }
    stream.close();
    const seqs = seen.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    const states = seen.filter((e) => e.type === 'state');
    expect(states[0]).toMatchObject({ state: 'started', status: 'pending', kind: 'sale' });
    expect(states.at(-1)?.status).toBe('confirmed');
    // The stream shows exactly the journal's transitions, in the journal's order.
    expect(states.map((e) => e.state)).toEqual(t.journal.transitions(sale.id).map((x) => x.to));
    // Once approved, the status never goes back to pending.
    const firstApproved = states.findIndex((e) => e.status !== 'pending');
    expect(states.slice(firstApproved).every((e) => e.status !== 'pending')).toBe(true);
    await untilIdle();
  });

  it('a wallet QR sale: the code to show arrives as a qr event, the same the POST answered', async () => {
    const stream = await openEvents(t.apiUrl, t.token);
    await stream.next();
    const sale = await post('/v1/payments', { amount: 2610, method: 'wallet-qr', qrModality: 'credit' });
    let qr: Ev | undefined;
    while (!qr) {
      const e = data(await stream.next());
      if (e.id === sale.id && e.type === 'qr') qr = e;
    }
    stream.close();
    expect(qr).toMatchObject({ kind: 'qr', qrCode: sale.qrCode });
    expect(sale.qrCode).toMatch(/^000201/);
    await request(`${t.apiUrl}/v1/payments/${sale.id}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
    }).then((r) => r.body.text());
    // One payment at a time per terminal: the next test's sale waits until the QR sale's flow is over.
    for (let i = 0; i < 400; i++) {
      const h = (await request(`${t.apiUrl}/v1/health`, {
        headers: { authorization: `Bearer ${t.token}` },
      }).then((r) => r.body.json())) as { busy: boolean };
      if (!h.busy) break;
      await new Promise((r) => setTimeout(r, 25));
    }
  });

  it('a receipt the printer may not have finished (paper ran out): the receipt question, and health shows the paper out', async () => {
    const printer = t.printer;
    printer.loadPaper(3);
    const stream = await openEvents(t.apiUrl, t.token);
    await stream.next();
    const sale = await post('/v1/payments', { amount: 2510, method: 'credit' });
    const seen: Ev[] = [];
    while (!seen.some((e) => e.type === 'receipt-question')) {
      const e = data(await stream.next(15_000));
      if (e.id === sale.id) seen.push(e);
    }
    stream.close();
    expect(seen.at(-1)).toMatchObject({ type: 'receipt-question', kind: 'sale' });
    // The question comes from `printing`, committed before the receipt's bytes left.
    const states = seen.filter((e) => e.type === 'state').map((e) => e.state);
    expect(states.slice(-3)).toEqual(['approved', 'printing', 'printing']);
    expect(seen.filter((e) => e.type === 'state').at(-1)).toMatchObject({
      state: 'printing',
      status: 'pending',
      input: 'receipt unsure',
    });
    const health = await request(`${t.apiUrl}/v1/health`, {
      headers: { authorization: `Bearer ${t.token}` },
    }).then((r) => r.body.json() as Promise<{ status: string; problems: string[]; printer: { paperOut: boolean } }>);
    expect(health).toMatchObject({ status: 'degraded', printer: { paperOut: true } });
    expect(health.problems).toContain('printer: paper out');
    printer.loadPaper();
    await untilIdle();
  });

  it('refuses a wrong or missing token with 401 JSON, not a stream', async () => {
    for (const authorization of ['Bearer wrong', undefined]) {
      const res = await fetch(`${t.apiUrl}/v1/events`, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    }
  });

  it('sends a heartbeat comment every heartbeatMs, and forgets a subscriber that hung up', async () => {
    const hub = new EventHub(t.daemon.journal);
    const d = t.daemon;
    const api = await listenApi(
      buildApp({
        engine: d.engine,
        journal: d.journal,
        outbox: d.outbox,
        token: t.token,
        log: createLogger({ level: 'silent' }),
        events: hub,
        heartbeatMs: 40,
      }),
      '127.0.0.1',
      0,
    );
    try {
      const stream = await openEvents(api.url, t.token);
      expect(await stream.next()).toEqual({ comment: 'omnipos events' });
      const started = Date.now();
      expect(await stream.next(2000)).toEqual({ comment: 'heartbeat' });
      expect(await stream.next(2000)).toEqual({ comment: 'heartbeat' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(60);
      expect(hub.subscribers).toBe(1);
      const id = declinedSaleRow(d.journal);
      hub.publish({ type: 'alarm', id, code: 'TEST', message: 'an alarm' });
      let alarm: Sse;
      do alarm = await stream.next(2000);
      while ('comment' in alarm);
      expect(JSON.parse(alarm.data)).toMatchObject({
        type: 'alarm',
        id,
        kind: 'sale',
        code: 'TEST',
        message: 'an alarm',
        seq: 1,
      });
      stream.close();
      for (let i = 0; i < 100 && hub.subscribers > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(hub.subscribers).toBe(0);
    } finally {
      await api.close();
    }
  });
});
