// A fleet of terminal daemons selling against one sandbox host, publishing to a real mosquitto
// (TLS from a CA made here, client certificates, an ACL file), with the broker stopped and
// restarted mid-run, a SIGKILLed terminal, and commands inside and outside the list.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, PACKAGE_ROOT } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startDaemon, type Daemon } from '../../../src/main.js';
import { deduped, finalPayments, paymentsOf, saleRound } from './fleet-sales.js';
import { buildSandbox, ledgerReport, listenSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { clearCardData } from '../../helpers/scan-card-data.js';
import { Broker, freePort, makePki, MERCHANT, mqttAs, sleep, terminalConfig, until } from './fleet-kit.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';
import { runCliCaptured } from '../../helpers/cli.js';

const FLEET = 10;
const ids = Array.from({ length: FLEET }, (_, i) => `T00000${String(i + 1).padStart(2, '0')}`);
const KILLED = 'T0000099';
const log = createLogger({ level: 'silent' });

interface Received {
  topic: string;
  retain: boolean;
  body: Record<string, unknown>;
  raw: string;
}

const root = tempDirForFile('omnipos-fleet-');
let broker: Broker;
let sandbox: RunningSandbox;
let daemons: Daemon[] = [];
let operator: MqttClient;
const received: Received[] = [];
const prefix = (id: string): string => `omnipos/${MERCHANT}/${id}`;

beforeAll(async () => {
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
}, 120_000);

afterAll(async () => {
  await Promise.all(daemons.map((d) => d.stop()));
  await operator?.endAsync(true);
  await broker?.stop();
  await sandbox?.close();
}, 60_000);

const round = (n: number): Promise<void> => saleRound(daemons, n);
const payments = (id: string): Received[] => paymentsOf(received, prefix(id));

describe('a fleet of terminals on a real mosquitto (TLS, client certificates, ACL)', () => {
  it('publishes status, payments (once by id, in order per terminal, across a broker restart), alarms and the day; totals equal the sandbox ledger', async () => {
    await until('every terminal online (retained status)', () =>
      ids.every((id) => received.some((m) => m.topic === `${prefix(id)}/status` && m.body.online === true)),
    );
    await round(1);
    await broker.stop();
    await round(2);
    await round(3);
    expect(daemons.every((d) => d.fleet?.connected === false)).toBe(true);
    await broker.start();
    await round(4);
    await until(
      'every payment at the consumer',
      () =>
        daemons.every(
          (d, i) =>
            new Set(payments(ids[i] as string).map((m) => m.body.id)).size === finalPayments(d).length &&
            finalPayments(d).length === 4,
        ),
      60_000,
      () =>
        daemons
          .map(
            (d, i) =>
              `${ids[i]}: journal ${d.journal
                .inStates(['confirmed', 'confirming', 'declined', 'failed', 'aborted', 'awaiting-decision'])
                .map((e) => `${e.id}:${e.state}`)
                .join(
                  ',',
                )} received ${[...new Set(payments(ids[i] as string).map((m) => String(m.body.id)))].join(',')} connected ${String(d.fleet?.connected)} stats ${JSON.stringify(d.fleet?.stats)} queued ${JSON.stringify(d.db.prepare('SELECT id, msg_id FROM telemetry_outbox').all())}`,
          )
          .join('\n'),
    );

    for (const [i, d] of daemons.entries()) {
      const got = deduped(payments(ids[i] as string));
      const seqs = got.map((m) => m.body.seq as number);
      expect(seqs, `terminal ${ids[i]} in order`).toEqual([...seqs].sort((a, b) => a - b));
      expect(got.map((m) => (m.body.payment as { id: number }).id).sort()).toEqual(
        finalPayments(d)
          .map((p) => p.id)
          .sort(),
      );
      for (const m of got) {
        const p = m.body.payment as Record<string, unknown>;
        expect(p).toMatchObject({ method: 'credit', status: 'confirmed' });
        expect(p.maskedPan).toMatch(/^\d{6}\*+\d{4}$/);
        expect(typeof p.orderId).toBe('string');
      }
    }

    // The consumer's fleet totals equal the sandbox ledger.
    const ledger = ledgerReport(sandbox.sandbox.ctx);
    const confirmed = ids
      .flatMap((id) => deduped(payments(id)))
      .map((m) => m.body.payment as { amount: number; status: string })
      .filter((p) => p.status === 'confirmed');
    expect(confirmed.reduce((s, p) => s + p.amount, 0)).toBe(ledger.totals.charged);
    await until('the day at the consumer adds up to the ledger', () => {
      const days = ids.map((id) => [...received].reverse().find((m) => m.topic.startsWith(`${prefix(id)}/day/`)));
      return (
        days.every((m) => m !== undefined) &&
        days.reduce((s, m) => s + (m?.body.totals as { net: number }).net, 0) === ledger.totals.charged
      );
    });

    // Alarms: a dead letter raised, then cleared.
    const d0 = daemons[0] as Daemon;
    const task = d0.outbox.enqueue({
      operation: 'confirm',
      idempotencyKey: 'fleet-test-dead',
      payload: { merchantOrderId: '000000000000001' },
      at: new Date(),
    });
    d0.outbox.deadLetter(task.id, 'refused by the host (test)');
    const alarms = (): Record<string, unknown>[] =>
      received.filter((m) => m.topic === `${prefix(ids[0] as string)}/alarms`).map((m) => m.body);
    await until('the alarm raised', () =>
      alarms().some((a) => a.event === 'raised' && (a.alarm as { code: string }).code === 'DEAD_LETTER'),
    );
    await until('the status names it', () =>
      received.some(
        (m) =>
          m.topic === `${prefix(ids[0] as string)}/status` &&
          String(JSON.stringify(m.body.alarms ?? [])).includes('DEAD_LETTER'),
      ),
    );
    d0.outbox.done(task.id, new Date());
    await until('the alarm cleared', () =>
      alarms().some((a) => a.event === 'cleared' && (a.alarm as { code: string }).code === 'DEAD_LETTER'),
    );

    // Status: versions, devices, outbox counts, busy.
    const status = [...received].reverse().find((m) => m.topic === `${prefix(ids[1] as string)}/status`)?.body;
    expect(status).toMatchObject({
      online: true,
      terminal: ids[1],
      busy: false,
      tables: { version: expect.any(String) },
      pinpad: { connected: true },
      outbox: { pending: 0 },
    });
    expect(typeof status?.software).toBe('string');

    // GET /metrics on a terminal: its payments, the host's latency per operation, the outboxes, the pinpad link.
    const scrape = await fetch(`${d0.apiUrl as string}/metrics`, {
      headers: { authorization: `Bearer ${readFileSync(d0.apiTokenFile, 'utf8').trim()}` },
    });
    const exposition = await scrape.text();
    expect(scrape.headers.get('content-type')).toMatch(/^application\/openmetrics-text/);
    expect(exposition).toContain('omnipos_payments_total{method="credit",status="confirmed"} 4');
    expect(exposition).toMatch(
      /omnipos_host_request_duration_seconds_count\{operation="sale",outcome="answer"\} [1-9]/,
    );
    expect(exposition).toContain('omnipos_outbox_tasks{state="pending"} 0');
    expect(exposition).toMatch(/omnipos_outbox_oldest_deadline_seconds \d/);
    expect(exposition).toContain('omnipos_pinpad_link_state{state="connected"} 1');
    expect(exposition).toContain('omnipos_fleet_telemetry_queued 0');
    expect(exposition).toMatch(/omnipos_printer_state\{kind="virtual",condition="online"\} 1/);

    // Nothing that crossed the broker holds card data, the API token or the client secret.
    const secrets = [
      ...clearCardData(),
      ...daemons.map((d) => readFileSync(d.apiTokenFile, 'utf8').trim()),
      readFileSync(path.join(PACKAGE_ROOT, 'config', 'sandbox', 'client-secret'), 'utf8').trim(),
    ];
    const leaks = received.filter(
      (m) =>
        secrets.some((s) => m.raw.includes(s)) || /"(track|ksn|pinBlock|token)[^"]*":"(?!\[REDACTED\])/i.test(m.raw),
    );
    expect(leaks.map((m) => m.topic)).toEqual([]);
    expect(received.length).toBeGreaterThan(FLEET * 6);
  }, 180_000);

  it('answers the commands on its list, refuses the rest naming why; the broker refuses a command on another terminal', async () => {
    const id = ids[0] as string;
    const results: Record<string, Record<string, unknown>> = {};
    const ask = async (
      name: string,
      body: unknown = {},
      rid = `r-${name}-${Math.random().toString(36).slice(2, 8)}`,
    ): Promise<Record<string, unknown>> => {
      await operator.publishAsync(`${prefix(id)}/cmd/${name}`, JSON.stringify({ id: rid, ...(body as object) }), {
        qos: 1,
      });
      await until(`the result of ${name}`, () =>
        received.some((m) => m.topic === `${prefix(id)}/cmd/${name}/result` && m.body.id === rid),
      );
      results[name] = (
        received.find((m) => m.topic === `${prefix(id)}/cmd/${name}/result` && m.body.id === rid) as Received
      ).body;
      return results[name];
    };
    expect(await ask('void', {})).toMatchObject({
      ok: false,
      error: { code: 'MOVES_MONEY', message: expect.stringContaining('moves money') },
    });
    expect(await ask('reboot')).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
    expect(await ask('status')).toMatchObject({ ok: true });
    expect(await ask('day-report')).toMatchObject({
      ok: true,
      result: { date: expect.any(String), totals: { net: expect.any(Number) } },
    });
    expect(await ask('outbox-flush')).toMatchObject({ ok: true, result: { settled: expect.any(Number) } });
    expect(await ask('init')).toMatchObject({ ok: true, result: { version: expect.any(String) } });
    // A re-initialization that fails answers so, with the acquirer's reason (the tables in force stay).
    sandbox.sandbox.faults.set('initialization', { status: 503, times: 10 });
    expect(await ask('init')).toMatchObject({
      ok: false,
      error: { code: expect.any(String), message: expect.any(String) },
    });
    sandbox.sandbox.faults.clear();
    // The answer carries the request id exactly as sent, even one holding 13 to 19 digits that
    // pass Luhn (a millisecond timestamp does one time in ten; each id here does): the terminal
    // used to scrub it like a PAN (`cli-176411***1234-abcdef`), and `omnipos fleet cmd`, whose id
    // was `cli-<Date.now()>-…`, lost that answer ("no answer … within 30 s", a flaky full suite).
    for (const [name, rid] of [
      ['void', 'cli-1764116311234-abcdef'],
      ['status', 'req-176411631123459'],
      ['init', 'job-1764116311234567891'],
    ] as const) {
      expect(await ask(name, {}, rid), `${name} ${rid}`).toMatchObject({ id: rid, command: name });
    }

    // Terminal 2's certificate may not publish on terminal 1's command topic: the broker says so (PUBACK 135).
    const seen = daemons[0]?.fleet?.stats.commands;
    const other = await mqttAs(broker, ids[1] as string);
    await expect(
      other.publishAsync(`${prefix(id)}/cmd/init`, JSON.stringify({ id: 'intruder' }), { qos: 1 }),
    ).rejects.toMatchObject({ code: 135 });
    // Nor read them: mosquitto grants the subscription and delivers nothing (the read ACL is checked per message).
    const overheard: string[] = [];
    other.on('message', (topic) => overheard.push(topic));
    await other.subscribeAsync(`${prefix(id)}/cmd/+`, { qos: 1 });
    await ask('status');
    await sleep(500);
    expect(daemons[0]?.fleet?.stats.commands).toBe((seen ?? 0) + 1);
    expect(received.some((m) => m.body.id === 'intruder')).toBe(false);
    expect(overheard).toEqual([]);
    await other.endAsync(true);
  }, 60_000);

  it('omnipos fleet day / watch / cmd read the same fleet as an operator', async () => {
    const cli = (argv: string[]): Promise<{ code: number; out: string; err: string }> => {
      const op = broker.pki.client('operator');
      return runCliCaptured([
        ...argv,
        '--broker',
        broker.url,
        '--ca',
        broker.pki.ca,
        '--cert',
        op.cert,
        '--key',
        op.key,
        '--timeout-seconds',
        '30',
      ]);
    };
    const ledger = ledgerReport(sandbox.sandbox.ctx);
    const date = daemons[0]?.operations.day.today() as string;
    const day = await cli(['fleet', 'day', '--date', date, '--json']);
    expect(day.err).toBe('');
    expect(JSON.parse(day.out)).toMatchObject({ date, terminals: FLEET, net: ledger.totals.charged, sales: FLEET * 4 });
    const watch = await cli(['fleet', 'watch', '--once']);
    expect(watch.code).toBe(0);
    for (const id of ids) expect(watch.out).toMatch(new RegExp(`${MERCHANT}/${id} +yes +(ok|degraded) +no +\\S+ +4 `));
    const why = (): string =>
      `${JSON.stringify(daemons[2]?.fleet?.stats)} connected=${String(daemons[2]?.fleet?.connected)}\nanswers seen by the consumer: ${received
        .filter((m) => m.topic.startsWith(`${prefix(ids[2] as string)}/cmd/`))
        .map((m) => `${m.topic} ${m.raw}`)
        .join('\n')}\n${broker.log
        .split('\n')
        .filter((l) => l.includes(ids[2] as string) || l.includes('omnipos-fleet'))
        .join('\n')}`;
    const init = await cli(['fleet', 'cmd', ids[2] as string, 'init', '--json']);
    expect(init.code, init.err + why()).toBe(0);
    expect(JSON.parse(init.out)).toMatchObject({ ok: true, command: 'init', result: { version: expect.any(String) } });
    const refused = await cli(['fleet', 'cmd', `${MERCHANT}/${ids[2] as string}`, 'void']);
    expect(refused.code, refused.err + refused.out + why()).toBe(1);
    expect(refused.out).toContain('moves money');
  }, 60_000);

  it('a terminal killed with SIGKILL shows offline through its last will', async () => {
    const dir = path.join(root, KILLED);
    mkdirSync(dir);
    const file = terminalConfig({
      dir,
      terminalId: KILLED,
      ordinal: 99,
      sandbox,
      broker,
      merchantId: SANDBOX_MERCHANT.merchant.subordinatedMerchantId,
    });
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'terminal-child.ts'), file],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    await until('the child terminal ready', () => out.includes('ready') || child.exitCode !== null, 60_000);
    expect(out).toContain('ready');
    const statusOf = (): Record<string, unknown> | undefined =>
      [...received].reverse().find((m) => m.topic === `${prefix(KILLED)}/status`)?.body;
    await until('the child online', () => statusOf()?.online === true);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    await until('the child offline by its will', () => statusOf()?.online === false, 30_000);
    // A newcomer reads it from the retained status.
    const late = await mqttAs(broker, 'operator');
    const retained: Record<string, unknown>[] = [];
    late.on(
      'message',
      (topic, payload) =>
        topic === `${prefix(KILLED)}/status` &&
        retained.push(JSON.parse(payload.toString()) as Record<string, unknown>),
    );
    await late.subscribeAsync(`${prefix(KILLED)}/status`, { qos: 1 });
    await until('the retained will', () => retained.length > 0);
    expect(retained[0]).toEqual({ online: false });
    await late.endAsync(true);
  }, 90_000);
});
