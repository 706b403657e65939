import { request } from 'undici';
import { Agent } from 'undici';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AcquirerReach } from '../../../src/api/health.js';
import { startTestDaemon } from '../../helpers/daemon.js';

/** The terminal's own clock runs this far behind the host's (the sandbox's, the real time). */
const BEHIND_MS = 90_000;

let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon({ clock: { now: () => new Date(Date.now() - BEHIND_MS) } });
});
afterAll(async () => {
  await t?.stop();
});

type Health = {
  status: string;
  problems: string[];
  busy: boolean;
  pinpad: { connected: boolean; status: string; secure: boolean; recognition: string; sessions: number };
  printer: { kind: string; reachable: boolean | null; paperOut: boolean | null; coverOpen: boolean | null };
  acquirer: { reachable: boolean | null; lastAnswerAt: string | null; lastFailureAt: string | null };
  outbox: { pending: number; deadLetters: number; oldestDeadline: string | null };
  tables: { version: string | null };
  clock: { hostOffsetMs: number };
};

async function health(auth = `Bearer ${t.token}`) {
  const res = await request(`${t.apiUrl}/v1/health`, { headers: { authorization: auth } });
  return { status: res.statusCode, body: (await res.body.json()) as Health };
}

describe('GET /v1/health on a real daemon', () => {
  it('reports the pinpad, tables, acquirer, outbox and clock as the daemon has them', async () => {
    const { status, body } = await health();
    expect(status).toBe(200);
    const secure = t.pinpadLink.secure;
    expect(secure.secure).toBe(true);
    expect(body.pinpad).toEqual({
      connected: true,
      status: 'connected',
      secure: true,
      recognition: secure.recognition,
      sessions: secure.sessions,
      opening: false,
      keySlots: expect.objectContaining({ configured: { pin: 1, data: 2 } }),
    });
    const version = (t.daemon.db.prepare('SELECT version FROM init_current WHERE id = 1').get() as { version: string })
      .version;
    expect(body.tables.version).toBe(version);
    // Initialization at start reached the sandbox: its answer is the last word.
    expect(body.acquirer.reachable).toBe(true);
    expect(body.acquirer.lastFailureAt).toBeNull();
    expect(body.outbox).toEqual({ ...t.outbox.depth(), awaitingHostClose: 0 });
    // The host's Date headers taught the terminal it is 90 s behind (± the header's 1 s resolution).
    expect(Math.abs(body.clock.hostOffsetMs - BEHIND_MS)).toBeLessThanOrEqual(1500);
    expect(body.printer.kind).toBe(t.config.printer.kind);
    expect(body).toMatchObject({ status: 'ok', problems: [], busy: false });
  });

  it('reads busy while a card sale holds the pinpad, and the outbox as the store has it after the decision', async () => {
    const post = await request(`${t.apiUrl}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 2510, method: 'credit', confirmation: 'ecr' }),
    });
    const { id } = (await post.body.json()) as { id: number };
    let sawBusy = (await health()).body.busy;
    for (let i = 0; i < 400 && t.journal.get(id)?.state !== 'awaiting-decision'; i++) {
      sawBusy ||= (await health()).body.busy;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(sawBusy).toBe(true);
    await request(`${t.apiUrl}/v1/payments/${id}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
    }).then((r) => r.body.text());
    const after = await health();
    expect(after.body.outbox).toEqual({ ...t.outbox.depth(), awaitingHostClose: 0 });
    // The receipt went through the virtual printer: its driver's last status is what health shows.
    for (let i = 0; i < 200 && t.printer.receipts.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await health()).body.printer).toEqual({
      kind: 'virtual',
      reachable: true,
      paperOut: false,
      paperNearEnd: false,
      coverOpen: false,
    });
  });

  it('reads degraded while the pinpad is unplugged, and ok again once it is back', async () => {
    const pinpad = t.pinpadCable;
    await pinpad.unplug();
    let h = await health();
    for (let i = 0; i < 200 && h.body.pinpad.connected; i++) {
      await new Promise((r) => setTimeout(r, 10));
      h = await health();
    }
    expect(h.body.pinpad.connected).toBe(false);
    expect(h.body.status).toBe('degraded');
    expect(h.body.problems.some((p) => p.startsWith('pinpad: '))).toBe(true);
    await pinpad.replug();
    for (let i = 0; i < 500 && h.body.status !== 'ok'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      h = await health();
    }
    expect(h.body).toMatchObject({ status: 'ok', pinpad: { connected: true, secure: true } });
  });

  it('refuses a wrong token with 401', async () => {
    const res = await request(`${t.apiUrl}/v1/health`, { headers: { authorization: 'Bearer wrong' } });
    expect(res.statusCode).toBe(401);
    await res.body.text();
  });
});

describe('AcquirerReach', () => {
  it('reads unreachable after a refused connection on the watched dispatcher, reachable again after an answer', async () => {
    // A port nobody listens on: take a free one and close it.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const agent = new Agent();
    const reach = new AcquirerReach().watch(agent);
    expect(reach.view().reachable).toBeNull();
    await expect(request(`http://127.0.0.1:${port}/`, { dispatcher: agent })).rejects.toThrow();
    expect(reach.view()).toMatchObject({ reachable: false, lastAnswerAt: null });
    expect(reach.view().lastFailure).toContain(`127.0.0.1:${port}`);
    reach.answered(new Date(Date.now() + 1));
    expect(reach.view().reachable).toBe(true);
    await agent.close();
  });
});
