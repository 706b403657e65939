import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/core/log/index.js';
import { startDaemon } from '../../src/main.js';
import { cardSim } from '../../src/sim/pinpad/index.js';

/** What bench:disk's child measured between its two markers (see disk.ts). */
export interface OwnFigures {
  sales: number;
  /** /proc/self/io deltas. */
  writeBytes: number;
  syscw: number;
  /** The device's deltas (shared with the machine): sectors of 512 bytes written, flush requests. */
  deviceSectorsWritten: number | null;
  deviceFlushes: number | null;
  /** What the journal's durability needs, counted in the database over the run. */
  journalRows: number;
  transitions: number;
  outboxTasks: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** N card sales through the daemon's API on a clock moved ahead (one MerchantOrderId per tenth of a second). */
export async function runSales(
  dir: string,
  sales: number,
  probe: { io: () => Record<string, number>; devStat: () => number[] | undefined },
): Promise<OwnFigures> {
  const stateDir = path.join(dir, 'state');
  mkdirSync(stateDir);
  let skewMs = 0;
  const clock = { now: (): Date => new Date(Date.now() + skewMs) };
  const daemon = await startDaemon({
    config: loadConfig({ env: { OMNIPOS_STATE_DIR: stateDir } }),
    log: createLogger({ level: 'silent' }),
    env: {},
    sandboxPort: 0,
    apiPort: 0,
    clock,
  });
  if (daemon.virtualPinpad) cardSim(daemon.virtualPinpad.engine.state).deck.delayMs = 0;
  const token = (await import('node:fs')).readFileSync(daemon.apiTokenFile, 'utf8').trim();
  const call = async (method: 'GET' | 'POST', p: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await request(`${daemon.apiUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.body.text();
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const hostClock = daemon.sandbox?.sandbox.ctx.clock;
  const sale = async (): Promise<void> => {
    skewMs += 200;
    hostClock?.set(clock.now());
    const created = await call('POST', '/v1/payments', { amount: 2510, method: 'credit', confirmation: 'auto' });
    const id = created.id as number;
    if (id === undefined) throw new Error(`refused: ${JSON.stringify(created)}`);
    for (;;) {
      const s = (await call('GET', `/v1/payments/${id}`)).status as string;
      if (!['pending', 'approved'].includes(s)) break;
      await sleep(5);
    }
    while ((await call('GET', '/v1/health')).busy) await sleep(2);
  };
  const drained = async (): Promise<void> => {
    for (let i = 0; i < 600 && daemon.outbox.depth().pending > 0; i++) await sleep(50);
  };
  const count = (sql: string): number => (daemon.db.prepare(sql).get() as { n: number }).n;
  for (let i = 0; i < 3; i++) await sale();
  await drained();
  const before = {
    io: probe.io(),
    dev: probe.devStat(),
    rows: count('SELECT count(*) AS n FROM journal'),
    transitions: count('SELECT count(*) AS n FROM journal_transitions'),
    outbox: count('SELECT count(*) AS n FROM outbox'),
  };
  writeFileSync(path.join(dir, 'start.marker'), 'x');
  for (let i = 0; i < sales; i++) await sale();
  await drained();
  writeFileSync(path.join(dir, 'end.marker'), 'x');
  const io = probe.io();
  const dev = probe.devStat();
  const out: OwnFigures = {
    sales,
    writeBytes: (io.write_bytes ?? 0) - (before.io.write_bytes ?? 0),
    syscw: (io.syscw ?? 0) - (before.io.syscw ?? 0),
    deviceSectorsWritten: dev && before.dev ? (dev[6] ?? 0) - (before.dev[6] ?? 0) : null,
    deviceFlushes: dev && before.dev && dev.length >= 17 ? (dev[15] ?? 0) - (before.dev[15] ?? 0) : null,
    journalRows: count('SELECT count(*) AS n FROM journal') - before.rows,
    transitions: count('SELECT count(*) AS n FROM journal_transitions') - before.transitions,
    outboxTasks: count('SELECT count(*) AS n FROM outbox') - before.outbox,
  };
  await daemon.stop();
  return out;
}
