/**
 * `npx tsx test/bench/fleet-sales.ts [--sales N]`: does a sale wait on the broker? Card sales per
 * second on one terminal daemon (virtual pinpad, sandbox host over loopback, real SQLite) with no
 * fleet, with the broker up, with the broker's address unanswered, and with the broker stopped
 * and started every 700 ms; and what crosses the broker per sale (messages and bytes per topic,
 * read by a consumer). Short: N sales per mode (default 12).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/core/log/index.js';
import { startDaemon } from '../../src/main.js';
import { buildSandbox, listenSandbox } from '../../src/sandbox/index.js';
import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';
import { Broker, freePort, makePki, mqttAs, sleep, terminalConfig } from '../integration/fleet/fleet-kit.js';

const { values } = parseArgs({ options: { sales: { type: 'string', default: '12' } } });
const sales = Number(values.sales);
const root = mkdtempSync(path.join(tmpdir(), 'omnipos-fleet-bench-'));
const modes = ['none', 'up', 'down', 'flapping'] as const;
const ids = { none: 'B0000001', up: 'B0000002', down: 'B0000003', flapping: 'B0000004' };
const log = createLogger({ level: 'silent' });
const pki = makePki(root, [...Object.values(ids), 'operator']);
const broker = new Broker(pki, await freePort());
await broker.start();
const sandbox = await listenSandbox(buildSandbox({ dbFile: path.join(root, 'sandbox', 'acquirer.db'), log }), {
  port: 0,
});
const merchantId = SANDBOX_MERCHANT.merchant.subordinatedMerchantId;
const insert = sandbox.sandbox.ctx.db.prepare(
  'INSERT INTO terminals (terminal_id, subordinated_merchant_id, body) VALUES (?, ?, ?)',
);
for (const id of Object.values(ids)) insert.run(id, merchantId, '{}');
const consumer = await mqttAs(broker, 'operator', { session: 'bench-consumer' });
const perTopic = new Map<string, { messages: number; bytes: number }>();
let counting = false;
consumer.on('message', (topic, payload) => {
  if (!counting) return;
  const leaf = topic
    .split('/')
    .slice(3)
    .join('/')
    .replace(/^day\/.*/, 'day/<date>')
    .replace(/^cmd\/.*/, 'cmd');
  const c = perTopic.get(leaf) ?? { messages: 0, bytes: 0 };
  c.messages++;
  // What a broker carries: the topic and the payload (MQTT headers and properties add a few bytes).
  c.bytes += Buffer.byteLength(topic) + payload.length;
  perTopic.set(leaf, c);
});
await consumer.subscribeAsync('omnipos/#', { qos: 1 });

const results: Record<string, unknown>[] = [];
for (const [i, mode] of modes.entries()) {
  const dir = path.join(root, mode);
  mkdirSync(dir);
  const brokerUrl = mode === 'down' ? `mqtts://127.0.0.1:${await freePort()}` : broker.url;
  const config = loadConfig({
    path: terminalConfig({
      dir,
      terminalId: ids[mode],
      ordinal: i + 1,
      sandbox,
      broker,
      merchantId,
      brokerUrl,
      noFleet: mode === 'none',
    }),
    env: {},
  });
  const d = await startDaemon({ config, log, env: {}, api: false, fleetReconnectMs: 200 });
  if (mode === 'up') for (let k = 0; k < 100 && !d.fleet?.connected; k++) await sleep(50);
  let flapping = mode === 'flapping';
  const flapper = (async () => {
    while (flapping) {
      await sleep(700);
      await broker.stop();
      await sleep(700);
      await broker.start();
    }
  })();
  const sale = async (n: number): Promise<void> => {
    while (d.engine.busy) await sleep(5);
    const { done } = await d.engine.start({
      amount: 10_000 + n * 100,
      method: 'credit',
      installments: 1,
      interest: 'ByMerchant',
      confirmation: 'auto',
    });
    await done;
  };
  await sale(0);
  counting = mode === 'up';
  const before = { ...(d.fleet?.stats ?? { published: 0, bytes: 0 }) };
  const started = performance.now();
  for (let n = 1; n <= sales; n++) await sale(n);
  const seconds = (performance.now() - started) / 1000;
  flapping = false;
  await flapper;
  if (mode === 'up') await sleep(2500);
  counting = false;
  const after = d.fleet?.stats ?? { published: 0, bytes: 0 };
  results.push({
    mode,
    sales,
    seconds: Math.round(seconds * 100) / 100,
    salesPerSecond: Math.round((sales / seconds) * 100) / 100,
    published: after.published - before.published,
    queued: (
      d.db.prepare('SELECT count(*) AS n FROM telemetry_outbox WHERE delivered_at IS NULL').get() as { n: number }
    ).n,
  });
  await d.stop();
}
console.log(
  JSON.stringify(
    {
      results,
      perSale: Object.fromEntries(
        [...perTopic].map(([k, v]) => [k, { messages: v.messages / sales, bytes: Math.round(v.bytes / sales) }]),
      ),
    },
    null,
    1,
  ),
);
await consumer.endAsync(true);
await broker.stop();
await sandbox.close();
rmSync(root, { recursive: true, force: true });
