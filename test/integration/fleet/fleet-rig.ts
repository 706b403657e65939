// The fleet under test for fleet.test.ts: terminal daemons selling against one sandbox host and
// publishing to a real mosquitto (TLS from a CA made here, client certificates, an ACL file), and an
// operator subscribed to every topic. The state is exported as live bindings, set by startFleet().
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startDaemon, type Daemon } from '../../../src/main.js';
import { buildSandbox, listenSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { Broker, freePort, makePki, MERCHANT, mqttAs, terminalConfig, until } from './fleet-kit.js';

export const FLEET = 10;
export const ids = Array.from({ length: FLEET }, (_, i) => `T00000${String(i + 1).padStart(2, '0')}`);
export const KILLED = 'T0000099';
export const log = createLogger({ level: 'silent' });

export interface Received {
  topic: string;
  retain: boolean;
  body: Record<string, unknown>;
  raw: string;
}

export let root: string;
export let broker: Broker;
export let sandbox: RunningSandbox;
export let daemons: Daemon[] = [];
export let operator: MqttClient;
export const received: Received[] = [];
export const prefix = (id: string): string => `omnipos/${MERCHANT}/${id}`;

/** Starts the broker, the sandbox host (every terminal registered), the operator's subscription and the daemons. */
export async function startFleet(): Promise<void> {
  root = mkdtempSync(path.join(tmpdir(), 'omnipos-fleet-'));
  const pki = makePki(root, [...ids, KILLED, 'operator']);
  broker = new Broker(pki, await freePort());
  await broker.start();
  sandbox = await listenSandbox(buildSandbox({ dbFile: path.join(root, 'sandbox', 'acquirer.db'), log }), { port: 0 });
  const merchantId = SANDBOX_MERCHANT.merchant.subordinatedMerchantId;
  const insert = sandbox.sandbox.ctx.db.prepare(
    'INSERT INTO terminals (terminal_id, subordinated_merchant_id, body) VALUES (?, ?, ?)',
  );
  for (const id of [...ids, KILLED]) insert.run(id, merchantId, JSON.stringify({ TerminalId: id }));
  operator = await mqttAs(broker, 'operator', { session: 'fleet-consumer' });
  operator.on('message', (topic, payload, packet) =>
    received.push({
      topic,
      retain: packet.retain,
      raw: payload.toString(),
      body: payload.length ? (JSON.parse(payload.toString()) as Record<string, unknown>) : {},
    }),
  );
  await operator.subscribeAsync('omnipos/#', { qos: 1 });
  daemons = [];
  for (const [i, id] of ids.entries()) {
    const dir = path.join(root, id);
    mkdirSync(dir);
    const config = loadConfig({
      path: terminalConfig({ dir, terminalId: id, ordinal: i + 1, sandbox, broker, merchantId }),
      env: {},
    });
    daemons.push(await startDaemon({ config, log, env: {}, apiPort: 0, fleetReconnectMs: 300 }));
  }
}

/** Stops the daemons, the operator, the broker and the host; removes the directory. */
export async function stopFleet(): Promise<void> {
  await Promise.all(daemons.map((d) => d.stop()));
  await operator?.endAsync(true);
  await broker?.stop();
  await sandbox?.close();
  rmSync(root, { recursive: true, force: true });
}

/** One sale on every terminal at once, each to its end (the sale never waits on the broker). */
export async function round(n: number): Promise<void> {
  await Promise.all(
    daemons.map(async (d, i) => {
      await until(`terminal ${i} idle`, () => !d.engine.busy);
      const { done } = await d.engine.start({
        amount: 10_000 + (i + 1) * 100 + n * 1000,
        method: 'credit',
        installments: 1,
        interest: 'ByMerchant',
        confirmation: 'auto',
      });
      await done;
    }),
  );
}

export function payments(id: string): Received[] {
  return received.filter((m) => m.topic === `${prefix(id)}/payments`);
}

/** A consumer's view: first copy of each id, in arrival order. */
export function deduped(list: Received[]): Received[] {
  const seen = new Set<string>();
  return list.filter((m) => {
    const k = String(m.body.id);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function finalPayments(d: Daemon): { id: number; status: string }[] {
  return d.journal
    .inStates(['confirmed', 'declined', 'aborted', 'failed', 'undone', 'needs-refund', 'dead-letter'])
    .map((e) => ({
      id: e.id,
      status: e.state === 'aborted' ? 'cancelled' : e.state === 'dead-letter' ? 'failed' : e.state,
    }));
}
