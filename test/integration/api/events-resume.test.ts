import { readFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { spawnDaemonProcess } from '../../helpers/daemon-process.js';
import { openEvents, type Sse } from '../../helpers/daemon.js';

/**
 * The event stream resumes across a daemon SIGKILL: a client that dropped its connection
 * reconnects to the restarted daemon with `Last-Event-ID` and gets exactly the events it missed
 * (as a client that stayed connected saw them), in order, then the live ones.
 */

const tempDir = useTempDirs();

type Ev = { type: string; seq: number; id: number; status?: string };
const event = (e: Sse): { raw: string; ev: Ev } => {
  if ('comment' in e) return { raw: '', ev: { type: 'comment', seq: -1, id: -1 } };
  const ev = JSON.parse(e.data) as Ev;
  expect(e.id).toBe(String(ev.seq));
  return { raw: e.data, ev };
};

const FINAL = ['confirmed', 'declined', 'failed', 'cancelled', 'undone'];

describe('GET /v1/events with Last-Event-ID across a daemon SIGKILL', () => {
  it('the restarted daemon sends exactly the missed events, in order, then live ones; none twice', async () => {
    const state = tempDir('omnipos-resume-');
    const first = spawnDaemonProcess(state);
    const urlA = await first.url;
    const token = readFileSync(path.join(state, 'api-token'), 'utf8').trim();
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const sale = async (url: string, body: unknown): Promise<{ id: number }> => {
      // One payment at a time: wait for the terminal to be free.
      for (let i = 0; i < 600; i++) {
        const health = (await (await request(`${url}/v1/health`, { headers: auth })).body.json()) as { busy: boolean };
        if (!health.busy) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const res = await request(`${url}/v1/payments`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      const answer = (await res.body.json()) as { id: number };
      expect(res.statusCode, JSON.stringify(answer)).toBe(202);
      return answer;
    };

    // One client stays connected the whole life of the first daemon (the record of what it sent);
    // the other drops after the first sale.
    const observer = await openEvents(urlA, token);
    const client = await openEvents(urlA, token);
    await observer.next();
    await client.next();
    const one = await sale(urlA, { amount: 2510, method: 'credit' });
    let lastSeen = 0;
    for (;;) {
      const { ev } = event(await client.next(30_000));
      if (ev.type === 'comment') continue;
      lastSeen = ev.seq;
      if (ev.id === one.id && ev.type === 'state' && FINAL.includes(ev.status ?? '')) break;
    }
    client.close();

    // Missed while away: a second sale to its end, a wallet QR sale left pending.
    const two = await sale(urlA, { amount: 2520, method: 'credit', installments: 1 });
    const three = { id: -1 };
    const sent: { raw: string; ev: Ev }[] = [];
    let twoDone = false;
    for (;;) {
      const e = event(await observer.next(30_000));
      if (e.ev.type === 'comment') continue;
      sent.push(e);
      if (e.ev.id === two.id && e.ev.type === 'state' && FINAL.includes(e.ev.status ?? '') && !twoDone) {
        twoDone = true;
        three.id = (await sale(urlA, { amount: 2610, method: 'wallet-qr', qrModality: 'credit' })).id;
      }
      if (e.ev.id === three.id && e.ev.type === 'qr') break;
    }
    first.kill();
    expect((await first.exit).signal).toBe('SIGKILL');
    // Whatever else the first daemon sent before it died.
    for (;;) {
      try {
        const e = event(await observer.next(5_000));
        if (e.ev.type !== 'comment') sent.push(e);
      } catch {
        break;
      }
    }
    const missed = sent.filter((e) => e.ev.seq > lastSeen);
    expect(
      missed.length,
      JSON.stringify(missed.map((e) => [e.ev.seq, e.ev.id, e.ev.type, e.ev.status])),
    ).toBeGreaterThanOrEqual(8);
    expect(missed.some((e) => e.ev.id === two.id && e.ev.status === 'confirmed')).toBe(true);
    expect(missed.some((e) => e.ev.id === three.id && e.ev.type === 'qr')).toBe(true);
    const lastA = missed.at(-1)!.ev.seq;

    const second = spawnDaemonProcess(state);
    try {
      const urlB = await second.url;
      const resumed = await openEvents(urlB, token, String(lastSeen));
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get('x-omnipos-replay')).toBe('complete');
      const replayed: { raw: string; ev: Ev }[] = [];
      while (replayed.length < missed.length) {
        const e = event(await resumed.next(30_000));
        if (e.ev.type !== 'comment') replayed.push(e);
      }
      // Exactly what the first daemon sent after lastSeen: the same JSON, in the same order.
      expect(replayed.map((e) => e.raw)).toEqual(missed.map((e) => e.raw));
      // Then live: a new sale's events come after, numbered past the first daemon's, never repeated.
      const four = await sale(urlB, { amount: 1111, method: 'credit' });
      const after: Ev[] = [];
      for (;;) {
        const { ev } = event(await resumed.next(30_000));
        if (ev.type === 'comment') continue;
        after.push(ev);
        if (ev.id === four.id && ev.type === 'state' && FINAL.includes(ev.status ?? '')) break;
      }
      const seqs = [...replayed.map((e) => e.ev.seq), ...after.map((e) => e.seq)];
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(after[0]!.seq).toBeGreaterThan(lastA);
      resumed.close();
    } finally {
      second.kill();
      await second.exit;
    }
  }, 180_000);
});
