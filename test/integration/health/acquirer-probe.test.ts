import path from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createAcquirer, type Acquirer } from '../../../src/acquirer/index.js';
import { AcquirerReach } from '../../../src/api/health.js';
import { HostClock } from '../../../src/core/host-clock.js';
import { createLogger } from '../../../src/core/log/index.js';
import { AcquirerProbe } from '../../../src/main/acquirer-probe.js';
import { buildSandbox, listenSandbox, type RunningSandbox, sandboxSettings } from '../../../src/sandbox/index.js';
import { SANDBOX_CREDENTIALS } from '../../../tables/sandbox-credentials.js';
import { startTestDaemon } from '../../helpers/daemon.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const log = createLogger({ level: 'silent' });
/** The terminal's own clock runs this far behind the sandbox host's. */
const BEHIND_MS = 90_000;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Rig {
  running: RunningSandbox;
  acquirer: Acquirer;
  agent: Agent;
  reach: AcquirerReach;
  clock: HostClock;
  probe: AcquirerProbe;
  /** When each probe left (ms since the rig started) and the reach's changes. */
  asked: number[];
  changes: boolean[];
  control(method: string, p: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

const tempDir = useTempDirs();
const rigs: Rig[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});

/** The sandbox on loopback, the real acquirer clients and the probe wired as main.ts wires them. */
async function rig(port = 0): Promise<Rig> {
  const dir = tempDir('omnipos-probe-');
  const build = () => buildSandbox({ dbFile: path.join(dir, 'sandbox.db'), log });
  const running = await listenSandbox(build(), { port });
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const clock = new HostClock({ now: () => new Date(Date.now() - BEHIND_MS) });
  const reach = new AcquirerReach(() => clock.now()).watch(agent);
  const acquirer = createAcquirer({
    settings: { ...sandboxSettings(running), clientId: SANDBOX_CREDENTIALS.clientId, timeoutMs: 5000 },
    clientSecret: { reveal: () => SANDBOX_CREDENTIALS.clientSecret },
    environment: 'sandbox',
    clock,
    log,
    dispatcher: agent,
    onHostDate: (date) => {
      reach.answered();
      clock.observe(date);
    },
  });
  const t0 = Date.now();
  const asked: number[] = [];
  const changes: boolean[] = [];
  reach.onChange((r) => changes.push(r));
  const probe = new AcquirerProbe(
    {
      ask: (timeoutMs) => {
        asked.push(Date.now() - t0);
        return acquirer.tokens.refresh('transactional', timeoutMs);
      },
      reach,
      now: () => clock.now(),
      log,
      random: () => 0.999,
    },
    { slowMs: 300, fastMinMs: 40, fastMaxMs: 320, timeoutMs: 1000 },
  );
  const r: Rig = {
    running,
    acquirer,
    agent,
    reach,
    clock,
    probe,
    asked,
    changes,
    async control(method, p, body) {
      const res = await request(`${r.running.url}${p}`, {
        method: method as 'GET',
        ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
    async close() {
      await probe.stop();
      await acquirer.close();
      await agent.close();
      await r.running.close().catch(() => undefined);
    },
  };
  // A second listener on the same file for restarts.
  (r as Rig & { build: typeof build }).build = build;
  rigs.push(r);
  return r;
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await wait(10);
  }
}

describe('acquirer probe against the sandbox over loopback', () => {
  it('a token endpoint that resets connections (fault injection) reads unreachable, then reachable again with no sale, and the Date headers set the HostClock', async () => {
    const r = await rig();
    // Each probe is one token request repeated once by the HTTP layer (safe to repeat): 6 resets = 3 failed probes.
    expect((await r.control('POST', '/sandbox/faults', { route: 'omniToken', reset: 'before', times: 6 })).status).toBe(
      200,
    );
    expect(r.reach.reachable).toBeNull();
    r.probe.start();
    await until(() => r.changes.length >= 2, 10_000);
    const probesUntilUp = r.probe.probes;
    expect(r.changes.slice(0, 2)).toEqual([false, true]);
    expect(r.reach.view()).toMatchObject({ reachable: true });
    expect(r.reach.view().lastFailure).toMatch(/^probe: omniToken: connection lost/);
    // Every fault was taken by a probe; nothing but tokens was asked of the host.
    expect((await r.control('GET', '/sandbox/faults')).body).toEqual({});
    expect(probesUntilUp).toBe(4);
    const ledger = (await r.control('GET', '/sandbox/ledger')).body as Record<string, unknown>;
    expect(JSON.stringify(ledger)).not.toMatch(/"PaymentId"/);
    // Backoff while down: each failed probe is two tries 200 ms apart (the HTTP layer's repeat),
    // then a pause of 40, 80, 160 ms (the jitter pinned at the top of the step).
    const gaps = r.asked.slice(1, 4).map((t, i) => t - (r.asked[i] as number));
    expect(gaps[0]!).toBeGreaterThanOrEqual(200 + 40 - 5);
    expect(gaps[1]!).toBeGreaterThanOrEqual(200 + 80 - 5);
    expect(gaps[2]!).toBeGreaterThanOrEqual(200 + 160 - 5);
    // The probe's answers alone taught the HostClock the host's time (± the header's 1 s resolution).
    expect(Math.abs(r.clock.offsetMs - BEHIND_MS)).toBeLessThanOrEqual(1500);
  });

  it('a host that went away (connection refused) is noticed by the slow probe and found again when it listens again', async () => {
    const r = await rig();
    r.probe.start();
    await until(() => r.reach.reachable === true, 5000);
    const { port, ports } = r.running;
    await r.running.close();
    await until(() => r.reach.reachable === false, 5000);
    const downSince = r.probe.probes;
    await wait(1200);
    // Still asking while down (each probe is two tries 200 ms apart, then pauses of 40, 80, 160… ms).
    expect(r.probe.probes).toBeGreaterThan(downSince + 1);
    r.running = await listenSandbox((r as Rig & { build: () => ReturnType<typeof buildSandbox> }).build(), {
      port,
      ports,
    });
    await until(() => r.reach.reachable === true, 5000);
    expect(r.changes).toEqual([true, false, true]);
  });

  it('a 401 still proves the host is there; a 5xx does not', async () => {
    const r = await rig();
    expect((await r.control('POST', '/sandbox/faults', { route: 'omniToken', status: 503, times: 2 })).status).toBe(
      200,
    );
    expect(await r.probe.probe()).toBe('failed');
    expect(r.reach.reachable).toBe(false);
    const wrong = new AcquirerProbe({
      ask: () => Promise.reject(new Error('not an acquirer error')),
      reach: r.reach,
      now: () => new Date(),
      log,
    });
    expect(await wrong.probe()).toBe('failed');
    const refused = createAcquirer({
      settings: { ...sandboxSettings(r.running), clientId: 'nobody', timeoutMs: 2000 },
      clientSecret: { reveal: () => 'wrong' },
      environment: 'sandbox',
      clock: { now: () => new Date() },
      log,
    });
    const p401 = new AcquirerProbe({
      ask: (ms) => refused.tokens.refresh('transactional', ms),
      reach: r.reach,
      now: () => new Date(),
      log,
    });
    expect(await p401.probe()).toBe('answered');
    expect(r.reach.reachable).toBe(true);
    await refused.close();
  });
});

describe('the daemon runs the probe', () => {
  it('GET /v1/health goes unreachable and back to reachable on its own, with no sale', async () => {
    const t = await startTestDaemon({
      prefix: 'omnipos-probe-daemon-',
      log,
      deps: { acquirerProbe: { slowMs: 200, fastMinMs: 80, fastMaxMs: 400, timeoutMs: 1000 } },
    });
    try {
      const health = async () => {
        const res = await request(`${t.apiUrl}/v1/health`, { headers: { authorization: `Bearer ${t.token}` } });
        return (await res.body.json()) as {
          status: string;
          problems: string[];
          acquirer: { reachable: boolean | null; lastFailure: string | null };
        };
      };
      expect((await health()).acquirer.reachable).toBe(true);
      const sandbox = t.sandbox.url;
      const f = await request(`${sandbox}/sandbox/faults`, {
        method: 'POST',
        body: JSON.stringify({ route: 'omniToken', reset: 'before', times: 4 }),
        headers: { 'content-type': 'application/json' },
      });
      expect(f.statusCode).toBe(200);
      await f.body.text();
      const seen: (boolean | null)[] = [];
      const end = Date.now() + 10_000;
      for (;;) {
        const h = await health();
        if (seen.at(-1) !== h.acquirer.reachable) seen.push(h.acquirer.reachable);
        if (seen.includes(false) && h.acquirer.reachable === true) break;
        if (Date.now() > end) throw new Error(`health never came back: ${JSON.stringify(seen)}`);
        await wait(15);
      }
      expect(seen).toEqual([true, false, true]);
      const h = await health();
      expect(h.problems).not.toContain('acquirer: unreachable');
      expect(h.acquirer.lastFailure).toMatch(/^probe: /);
      const journalRows = (t.daemon.db.prepare('SELECT COUNT(*) AS n FROM journal').get() as { n: number }).n;
      expect(journalRows).toBe(0);
    } finally {
      await t.stop();
    }
  });
});
