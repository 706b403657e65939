import type { MqttClient } from 'mqtt';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Broker, freePort, makePki, MERCHANT, mqttAs, until } from '../integration/fleet/fleet-kit.js';
import { captureLogger } from '../helpers/capture-log.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { bearer } from './attacker.js';

/**
 * A flood of refused requests must not fill the log (nor the disk under it) and must not crowd out
 * good ones: 10,000 refused fleet commands through a real mosquitto (TLS, client certificates, the
 * fleet's ACL) and 10,000 refused API requests (wrong tokens, bad bodies) to one real daemon logging
 * at `info` into a real pino logger.
 *
 * The bound: refusals are told in one line per source (the broker, a client address) per minute,
 * a line is under 512 B, so the log may hold (2 + minutes elapsed) lines per source, whatever the
 * machine's speed. Before (8230ee6), each refused fleet command wrote its own `warn` line (~130 B:
 * 1.3 MB for 10,000) and got its own answer, published ahead of a good command's.
 */
const TERMINAL = '42004201';
const FLOOD = 10_000;
const LINE = 512;
const prefix = `omnipos/${MERCHANT}/${TERMINAL}`;

const root = tempDirForFile('omnipos-sec-flood-');
const captured = captureLogger('info');
let broker: Broker;
let t: TestDaemon;
let operator: MqttClient;
const results: { topic: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  const pki = makePki(root, [TERMINAL, 'operator']);
  broker = new Broker(pki, await freePort());
  await broker.start();
  const c = pki.client(TERMINAL);
  t = await startTestDaemon({
    prefix: 'omnipos-sec-flood-',
    log: captured.log,
    env: {
      OMNIPOS_FLEET__MQTT__URL: broker.url,
      OMNIPOS_FLEET__MQTT__MERCHANT: MERCHANT,
      OMNIPOS_FLEET__MQTT__CERT_FILE: c.cert,
      OMNIPOS_FLEET__MQTT__KEY_FILE: c.key,
      OMNIPOS_FLEET__MQTT__CA_FILE: pki.ca,
    },
  });
  operator = await mqttAs(broker, 'operator');
  operator.on('message', (topic, payload) => {
    if (topic.endsWith('/result'))
      results.push({ topic, body: JSON.parse(payload.toString()) as Record<string, unknown> });
  });
  await operator.subscribeAsync(`${prefix}/cmd/+/result`, { qos: 1 });
  await until('the terminal on the broker', () => t.daemon.fleet?.connected === true);
}, 120_000);

afterAll(async () => {
  await operator?.endAsync(true);
  await t?.stop();
  await broker?.stop();
}, 60_000);

const logBytes = (): number => Buffer.byteLength(captured.output());

/** Three kinds of refusal, each a different topic or payload: a command that moves money, one off the list, a bad payload. */
function refusedCommand(i: number): [string, string] {
  if (i % 3 === 0) return [`${prefix}/cmd/void`, JSON.stringify({ id: `v${i}` })];
  if (i % 3 === 1) return [`${prefix}/cmd/reboot-${i}`, ''];
  return [`${prefix}/cmd/status`, JSON.stringify({ id: `s${i}`, amount: 1000 })];
}

describe('a flood of refusals', () => {
  it(`${FLOOD} refused fleet commands: a few log lines, a few answers, and the good command after them is answered`, async () => {
    const fleet = t.daemon.fleet!;
    const seen = fleet.stats.commands;
    const before = logBytes();
    const from = captured.output().length;
    const started = Date.now();
    // In batches the broker's queue for the terminal keeps (mosquitto drops QoS 1 past max_queued_messages).
    for (let sent = 0; sent < FLOOD;) {
      const batch = Math.min(500, FLOOD - sent);
      await Promise.all(
        Array.from({ length: batch }, (_, k) => {
          const [topic, body] = refusedCommand(sent + k);
          return operator.publishAsync(topic, body, { qos: 1 });
        }),
      );
      sent += batch;
      await until(`${sent} commands at the terminal`, () => fleet.stats.commands - seen >= sent);
    }
    await operator.publishAsync(`${prefix}/cmd/status`, JSON.stringify({ id: 'the-good-one' }), { qos: 1 });
    await until('the good command answered', () => results.some((r) => r.body.id === 'the-good-one'));
    const minutes = Math.ceil((Date.now() - started) / 60_000);
    const logged = captured.output().slice(from);
    const bytes = logBytes() - before;
    const answered = results.findIndex((r) => r.body.id === 'the-good-one');
    console.log(
      `fleet flood: ${FLOOD} refused commands, ${bytes} log bytes, ${answered} refused answers before the good one, ${fleet.stats.unanswered} unanswered, ${minutes} min`,
    );
    expect(fleet.stats.commands - seen).toBe(FLOOD + 1);
    expect(fleet.stats.refused).toBeGreaterThanOrEqual(FLOOD);
    // One line per minute for the refusals (the first at once), one `info` line for the good command.
    expect(bytes).toBeLessThan((2 + minutes) * LINE + LINE);
    expect(logged).not.toContain('amount');
    // The answers to refusals: 10 at once, then one per 6 s.
    expect(answered).toBeLessThanOrEqual(10 + minutes * 10);
    expect(results[answered]?.body).toMatchObject({ ok: true, command: 'status' });
  }, 600_000);

  it(`${FLOOD} refused API requests (wrong tokens, bad bodies): one line per address per minute`, async () => {
    const api = t.apiUrl;
    const before = logBytes();
    const started = Date.now();
    // Two clients on kept-alive connections (as a script would hammer): one guessing tokens, one sending broken bodies.
    const guesser = new Pool(api, { connections: 4, connect: { localAddress: '127.0.0.4' } });
    const breaker = new Pool(api, { connections: 4, connect: { localAddress: '127.0.0.5' } });
    const one = async (i: number): Promise<number> => {
      const r =
        i % 2 === 0
          ? await guesser.request({ method: 'GET', path: '/v1/payments', headers: bearer(`guessed-${i}-0123456789`) })
          : await breaker.request({
              method: 'POST',
              path: '/v1/payments',
              headers: bearer(t.token),
              body: '{"amount": 1',
            });
      await r.body.dump();
      return r.statusCode;
    };
    const statuses = new Map<number, number>();
    for (let i = 0; i < FLOOD; i += 16)
      for (const s of await Promise.all(Array.from({ length: 16 }, (_, k) => one(i + k))))
        statuses.set(s, (statuses.get(s) ?? 0) + 1);
    await Promise.all([guesser.close(), breaker.close()]);
    expect(Object.fromEntries(statuses)).toEqual({ 400: FLOOD / 2, 401: FLOOD / 2 });
    const minutes = Math.ceil((Date.now() - started) / 60_000);
    const bytes = logBytes() - before;
    console.log(`API flood: ${FLOOD} refused requests, ${bytes} log bytes, ${minutes} min`);
    // Two addresses: (1 + minutes) lines each at most.
    expect(bytes).toBeLessThan(2 * (1 + minutes) * LINE);
    expect(captured.output()).not.toContain('guessed-');
  }, 600_000);
});
