import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextDailyClose } from '../../../src/engine/daily-close.js';
import type { Daemon } from '../../../src/main.js';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';
import { signWebhook, verifyWebhook } from '../../../src/operations/alarms/index.js';
import { businessDateOf } from '../../../src/operations/day/index.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';

const SECRET = 'a-shared-secret-for-the-alarm-webhook-0123456789';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  answered: number;
}

const dir = tempDirForFile('omnipos-alarms-');
let daemon: Daemon;
let token: string;
let t: TestDaemon | undefined;
let receiver: Server;
const received: Received[] = [];

beforeAll(async () => {
  // The receiver refuses the first UNDO_NEAR_CLOSE delivery (500) to prove the retry, then takes every one.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // The first UNDO_NEAR_CLOSE is refused (other alarms, e.g. OUTBOX_STUCK of the same undo, may come first).
      const body = Buffer.concat(chunks).toString('utf8');
      const answered =
        body.includes('"UNDO_NEAR_CLOSE"') && !received.some((r) => r.body.includes('"UNDO_NEAR_CLOSE"')) ? 500 : 200;
      received.push({ headers: req.headers, body, answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const secretFile = path.join(dir, 'webhook-secret');
  writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
  t = await startTestDaemon({
    stateDir: path.join(dir, 'state'),
    env: {
      OMNIPOS_ALARMS__WEBHOOK__URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/omnipos-alarms`,
      OMNIPOS_ALARMS__WEBHOOK__SECRET_FILE: secretFile,
      OMNIPOS_ALARMS__CHECK_SECONDS: '1',
    },
  });
  ({ daemon, token } = t);
});
afterAll(async () => {
  await t?.stop();
  await new Promise<void>((r) => receiver?.close(() => r()));
});

async function api(method: 'GET' | 'POST', p: string, body?: unknown) {
  const res = await request(`${daemon.apiUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

async function sandbox(method: 'GET' | 'POST', p: string, body?: unknown) {
  const res = await request(`${daemon.sandbox!.url}${p}`, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  return (await res.body.json()) as Record<string, unknown>;
}

async function waitFor<T>(what: string, f: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never: ${what}`);
}

describe('alarms reach a webhook', () => {
  it("the host's clock moved 10 minutes before the daily close with an undo it refuses: the receiver gets UNDO_NEAR_CLOSE, signed, retried after its 500", async () => {
    const sale = await api('POST', '/v1/payments', { amount: 2510, method: 'credit', confirmation: 'ecr' });
    expect(sale.status).toBe(202);
    await waitFor('approved', async () =>
      (await api('GET', `/v1/payments/${sale.body.id}`)).body.status === 'approved' ? true : undefined,
    );
    // The host answers every undo 503 from now on: the undo stays in the outbox.
    await sandbox('POST', '/sandbox/faults', { route: 'saleUndo', status: 503, times: 100_000 });
    expect((await api('POST', `/v1/payments/${sale.body.id}/undo`)).body.status).toBe('undone');
    await waitFor('an undo attempt failed', () =>
      daemon.outbox.open().some((t) => t.operation === 'sale.undo' && t.attempts > 0) ? true : undefined,
    );
    expect(received.filter((r) => r.body.includes('UNDO_NEAR_CLOSE'))).toHaveLength(0);
    // The host's clock (and so its Date header) jumps to 23:50, host time.
    const hostNow = new Date(String((await sandbox('GET', '/sandbox/clock')).now));
    const close = nextDailyClose(hostNow);
    await sandbox('POST', '/sandbox/clock', { now: new Date(close.getTime() - 10 * 60_000).toISOString() });

    const deliveries = await waitFor('the alarm delivered after a retry', () => {
      const mine = received.filter((r) => JSON.parse(r.body).code === 'UNDO_NEAR_CLOSE');
      return mine.length >= 2 ? mine : undefined;
    });
    expect(deliveries[0]!.answered).toBe(500);
    expect(deliveries[1]!.answered).toBe(200);
    for (const d of deliveries) {
      const signature = d.headers['x-omnipos-signature'] as string;
      const timestamp = d.headers['x-omnipos-timestamp'] as string;
      expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(d.headers['content-type']).toBe('application/json');
      // The receiver's check: HMAC-SHA256 of "<timestamp>.<body>" under the shared secret, and a recent timestamp.
      expect(verifyWebhook(SECRET, { signature, timestamp }, d.body, Math.floor(Date.now() / 1000))).toBe(true);
      expect(verifyWebhook('another secret', { signature, timestamp }, d.body, Math.floor(Date.now() / 1000))).toBe(
        false,
      );
      expect(
        verifyWebhook(
          SECRET,
          { signature, timestamp },
          d.body.replace('UNDO_NEAR_CLOSE', 'UNDO_NEAR_CLOSF'),
          Math.floor(Date.now() / 1000),
        ),
      ).toBe(false);
      // A replay ten minutes later is refused by the timestamp.
      expect(verifyWebhook(SECRET, { signature, timestamp }, d.body, Number(timestamp) + 600)).toBe(false);
      expect(signature).toBe(signWebhook(SECRET, Number(timestamp), d.body));
    }
    // Same alarm, same id: the receiver can deduplicate.
    expect(deliveries[0]!.headers['x-omnipos-alarm-id']).toBe(deliveries[1]!.headers['x-omnipos-alarm-id']);
    const alarm = JSON.parse(deliveries[1]!.body);
    expect(alarm).toMatchObject({
      code: 'UNDO_NEAR_CLOSE',
      severity: 'error',
      source: 'condition',
      terminalId: daemon.config.values.terminal.terminalId,
      environment: 'sandbox',
    });
    expect(alarm.context.undos).toEqual([expect.objectContaining({ merchantOrderId: sale.body.merchantOrderId })]);
    expect(alarm.context.close).toBe(close.toISOString());
    // Also in health, and the clock's offset is an alarm of its own.
    // (the checks run every second: CLOCK_OFF holds from the first check after the host's answer moved the offset)
    const health = await waitFor('CLOCK_OFF beside UNDO_NEAR_CLOSE in health', async () => {
      const h = (await api('GET', '/v1/health')).body;
      const codes = h.alarms.map((a: { code: string }) => a.code);
      return codes.includes('UNDO_NEAR_CLOSE') && codes.includes('CLOCK_OFF') ? h : undefined;
    });
    expect(health.status).toBe('degraded');
    expect(health.problems).toContain('alarm: UNDO_NEAR_CLOSE');
    // Delivered, and the delivery is kept: a restart does not send it again.
    const row = daemon.db
      .prepare('SELECT attempts, delivered_at FROM alarm_webhooks WHERE alarm_id = ?')
      .get(alarm.id) as { attempts: number; delivered_at: string | null };
    expect(row.attempts).toBe(2);
    expect(row.delivered_at).not.toBeNull();
    // Nothing secret in what was sent.
    for (const r of received) {
      expect(r.body).not.toContain(SECRET);
      expect(r.body).not.toContain(token);
    }
  }, 90_000);

  it('past the close, the host confirmed the sale the undo never reached: needs-refund reaches the receiver once, and the day report shows it', async () => {
    const hostNow = new Date(String((await sandbox('GET', '/sandbox/clock')).now));
    // 00:01 the next day, host time: the sandbox's close confirms what was pending.
    await sandbox('POST', '/sandbox/clock', {
      now: new Date(nextDailyClose(hostNow).getTime() + 60_000).toISOString(),
    });
    const sale = daemon.journal.list({ limit: 10 }).find((e) => e.kind === 'sale')!;
    // Due at once: the next attempt learns the host's new time from its Date header, the one after queries.
    const pushed = async () => {
      daemon.outbox.flush(new Date(0));
      await daemon.forwarder.runOnce();
      return daemon.journal.get(sale.id)?.state === 'needs-refund' ? true : undefined;
    };
    await waitFor('needs-refund', pushed);
    const refunds = await waitFor('NEEDS_REFUND delivered', () => {
      const got = received.filter((r) => r.answered === 200 && JSON.parse(r.body).code === 'NEEDS_REFUND');
      return got.length > 0 ? got : undefined;
    });
    const alarm = JSON.parse(refunds[0]!.body);
    expect(alarm).toMatchObject({ id: `needs-refund:${sale.id}`, severity: 'error' });
    expect(
      verifyWebhook(
        SECRET,
        {
          signature: refunds[0]!.headers['x-omnipos-signature'] as string,
          timestamp: refunds[0]!.headers['x-omnipos-timestamp'] as string,
        },
        refunds[0]!.body,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(true);
    // The engine's event and the check see the same happening: one notification.
    await new Promise((r) => setTimeout(r, 2500));
    expect(received.filter((r) => JSON.parse(r.body).code === 'NEEDS_REFUND' && r.answered === 200)).toHaveLength(1);
    expect((await api('GET', '/v1/health')).body.alarms.map((a: { code: string }) => a.code)).toContain('NEEDS_REFUND');
    // The sale's business day (host time when it was opened) lists it in needs-refund, still charged.
    const report = (await api('GET', `/v1/day/report?date=${businessDateOf(new Date(sale.createdAt))}`)).body;
    expect(report.lines.find((l: { id: number }) => l.id === sale.id)).toMatchObject({
      outcome: 'needs-refund',
      charged: 2510,
    });
    expect(report.totals.needsRefundAmount).toBe(2510);
    expect(report.counts.byOutcome['needs-refund']).toBe(1);
  }, 60_000);
});
