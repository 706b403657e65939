import fc from 'fast-check';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import forge from 'node-forge';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log/index.js';
import { EventHub } from '../../../src/api/events.js';
import {
  AlarmMonitor,
  conditions,
  engineAlarmKey,
  signWebhook,
  verifyWebhook,
  WebhookQueue,
  WebhookSender,
  type AlarmSnapshot,
} from '../../../src/operations/alarms/index.js';
import { Journal, openTerminalDatabase, Outbox } from '../../../src/store/index.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { useTempStores } from '../../helpers/store.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed (operations/alarms): ${SEED}`);
const tempDir = useTempDirs();
const openStore = useTempStores();
const silent = createLogger({ level: 'silent' });

const base: AlarmSnapshot = {
  now: new Date('2026-11-23T02:00:00Z'),
  nextClose: new Date('2026-11-23T03:00:00Z'),
  pendingUndos: [],
  needsRefund: [],
  deadLetters: [],
  clockOffsetMs: 0,
};
const T = { closeWarningMs: 60 * 60_000, clockOffsetMs: 60_000 };
const codes = (s: Partial<AlarmSnapshot>) => conditions({ ...base, ...s }, T).map((c) => c.code);

describe('alarm conditions', () => {
  it('read the next daily close only with undos pending (its time-zone arithmetic is not paid by every check)', () => {
    const undo = { taskId: 1, merchantOrderId: '263260010000001', attempts: 3, lastError: 'HTTP 503' };
    const withoutClose = (pendingUndos: AlarmSnapshot['pendingUndos']): AlarmSnapshot => ({
      now: base.now,
      get nextClose(): Date {
        throw new Error('nextClose read');
      },
      pendingUndos,
      needsRefund: [],
      deadLetters: [],
      clockOffsetMs: 0,
    });
    expect(conditions(withoutClose([]), T)).toEqual([]);
    expect(() => conditions(withoutClose([undo]), T)).toThrow('nextClose read');
  });

  it('each condition, and its threshold', () => {
    expect(codes({})).toEqual([]);
    const undo = { taskId: 1, merchantOrderId: '263260010000001', attempts: 3, lastError: 'HTTP 503' };
    expect(codes({ pendingUndos: [undo] })).toEqual(['UNDO_NEAR_CLOSE']);
    expect(codes({ pendingUndos: [undo], now: new Date('2026-11-23T01:59:59Z') })).toEqual([]);
    expect(conditions({ ...base, pendingUndos: [undo] }, T)[0]).toMatchObject({
      key: 'undo-near-close:2026-11-23T03:00:00.000Z',
      severity: 'error',
      once: true,
    });
    expect(codes({ needsRefund: [{ id: 4, kind: 'sale', merchantOrderId: '1', amount: 1234 }] })).toEqual([
      'NEEDS_REFUND',
    ]);
    expect(
      conditions({ ...base, needsRefund: [{ id: 4, kind: 'sale', merchantOrderId: '1', amount: 1234 }] }, T)[0]!
        .message,
    ).toContain('R$ 12,34');
    expect(
      codes({
        deadLetters: [
          { taskId: 2, journalId: 9, operation: 'sale.confirm', merchantOrderId: '1', reason: 'already undone' },
        ],
      }),
    ).toEqual(['DEAD_LETTER']);
    expect(codes({ printer: { online: true, paperOut: true, coverOpen: false } })).toEqual(['PRINTER_PAPER_OUT']);
    expect(codes({ printer: { online: false, paperOut: false, coverOpen: true } })).toEqual([
      'PRINTER_OFFLINE',
      'PRINTER_COVER_OPEN',
    ]);
    expect(codes({ pinpad: 'disconnected' })).toEqual(['PINPAD_GONE']);
    expect(codes({ pinpad: 'connected' })).toEqual([]);
    expect(codes({ pinpad: 'connecting' })).toEqual([]);
    expect(codes({ clockOffsetMs: 60_001 })).toEqual(['CLOCK_OFF']);
    expect(codes({ clockOffsetMs: -60_000 })).toEqual([]);
    expect(engineAlarmKey('NEEDS_REFUND', 4)).toBe('needs-refund:4');
    expect(engineAlarmKey('UNDO_DEAD_LETTER', 9)).toBe('dead-letter:9');
    expect(engineAlarmKey('HOST_ANOMALY', 9)).toBe('engine:HOST_ANOMALY:9');
  });
});

describe('a pre-authorization near its capture deadline (CNP_CAPTURE_DUE)', () => {
  const due = (hours: number) => ({
    id: 7,
    merchantOrderId: '2611230001',
    amount: 12_000,
    deadline: new Date(base.now.getTime() + hours * 3_600_000),
  });
  it('raised within the margin (24 h by default, or as configured), an error once past the deadline; not before', () => {
    expect(codes({ preAuthorizations: [due(25)] })).toEqual([]);
    expect(conditions({ ...base, preAuthorizations: [due(23)] }, T)).toEqual([
      expect.objectContaining({
        key: 'capture-due:7',
        code: 'CNP_CAPTURE_DUE',
        severity: 'warn',
        message: expect.stringContaining('must be captured or voided before'),
      }),
    ]);
    expect(
      conditions({ ...base, preAuthorizations: [due(47)] }, { ...T, captureWarningMs: 48 * 3_600_000 }),
    ).toHaveLength(1);
    expect(conditions({ ...base, preAuthorizations: [due(-1)] }, T)).toEqual([
      expect.objectContaining({ severity: 'error', message: expect.stringContaining('passed its capture deadline') }),
    ]);
  });

  it("the monitor reads the journal's pre-authorizations (kind cnp, authorized) with the deadline it is given", () => {
    const db = openStore();
    const journal = new Journal(db);
    const clock = new FakeClock(base.now.toISOString());
    const open = (state: string, kind: 'cnp' | 'sale', order: string) =>
      journal.open({ kind, merchantOrderId: order, state, amount: 5000, data: {}, input: 'request', at: clock.now() });
    const held = open('authorized', 'cnp', '2611230011');
    open('captured', 'cnp', '2611230012');
    const monitor = new AlarmMonitor({
      journal,
      outbox: new Outbox(db),
      clock,
      log: silent,
      thresholds: T,
      checkMs: 60_000,
      terminal: { terminalId: 't', environment: 'sandbox' },
      captureDeadline: () => new Date(base.now.getTime() + 3_600_000),
    });
    expect(monitor.snapshot().preAuthorizations).toEqual([
      { id: held.id, merchantOrderId: '2611230011', amount: 5000, deadline: new Date(base.now.getTime() + 3_600_000) },
    ]);
    expect(monitor.check().map((a) => a.code)).toEqual(['CNP_CAPTURE_DUE']);
  });
});

describe('the webhook signature', () => {
  it('node-forge reproduces RFC 4231 test case 2 (HMAC-SHA-256, key "Jefe")', () => {
    const h = forge.hmac.create();
    h.start('sha256', 'Jefe');
    h.update('what do ya want for nothing?');
    expect(h.digest().toHex()).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('is sha256= and the HMAC-SHA-256 of "<timestamp>.<body>", as an independent implementation (node-forge) computes it; verify accepts it and refuses any change (1000 runs)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.string({ maxLength: 300 }),
        (secret, ts, body) => {
          const h = forge.hmac.create();
          h.start('sha256', forge.util.encodeUtf8(secret));
          h.update(forge.util.encodeUtf8(`${ts}.${body}`));
          const sig = signWebhook(secret, ts, body);
          const ok =
            sig === `sha256=${h.digest().toHex()}` &&
            verifyWebhook(secret, { signature: sig, timestamp: String(ts) }, body, ts + 10);
          const tampered =
            !verifyWebhook(secret, { signature: sig, timestamp: String(ts) }, `${body}x`, ts) &&
            !verifyWebhook(`${secret}x`, { signature: sig, timestamp: String(ts) }, body, ts);
          const replayed = !verifyWebhook(secret, { signature: sig, timestamp: String(ts) }, body, ts + 301);
          return ok && tampered && replayed;
        },
      ),
      { numRuns: 1000, seed: SEED },
    );
  });
});

async function receiver(
  status: () => number,
): Promise<{ url: string; got: { id: string; body: string }[]; close(): Promise<void> }> {
  const got: { id: string; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      got.push({ id: String(req.headers['x-omnipos-alarm-id']), body });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('alarm deliveries are kept across a restart', () => {
  it('an alarm queued while the receiver is down is delivered by the next process, once', async () => {
    const state = path.join(tempDir(), 'state');
    const clock = new FakeClock('2026-11-22T12:00:00Z');
    const secret = { reveal: () => 's3cret' };
    let db = openTerminalDatabase(state);
    let agent = new Agent();
    const down = new WebhookSender({
      url: 'http://127.0.0.1:1/hook',
      secret,
      timeoutMs: 1000,
      queue: new WebhookQueue(db),
      wallClock: clock,
      dispatcher: agent,
      log: silent,
    });
    expect(down.enqueue('needs-refund:4', { code: 'NEEDS_REFUND' })).toBe(true);
    expect(down.enqueue('needs-refund:4', { code: 'NEEDS_REFUND' })).toBe(false);
    expect(await down.runOnce()).toBe(0);
    expect(down.queue.pending()).toEqual([
      expect.objectContaining({ alarmId: 'needs-refund:4', attempts: 1, lastError: expect.any(String) }),
    ]);
    // Not due again at once: backoff.
    expect(await down.runOnce()).toBe(0);
    expect(down.queue.pending()[0]!.attempts).toBe(1);
    await agent.close();
    db.close();
    // The next process, the receiver up, after the backoff.
    const r = await receiver(() => 204);
    db = openTerminalDatabase(state);
    agent = new Agent();
    clock.advance(10_000);
    const up = new WebhookSender({
      url: r.url,
      secret,
      timeoutMs: 1000,
      queue: new WebhookQueue(db),
      wallClock: clock,
      dispatcher: agent,
      log: silent,
    });
    expect(await up.runOnce()).toBe(1);
    expect(await up.runOnce()).toBe(0);
    expect(r.got.map((g) => g.id)).toEqual(['needs-refund:4']);
    expect(up.queue.pending()).toEqual([]);
    await agent.close();
    await r.close();
    db.close();
  });
});

describe('the alarm monitor', () => {
  it('one notification per happening: an engine alarm and the condition it shares a key with; devices need two checks in a row; a cleared condition leaves health', async () => {
    const db = openStore();
    const journal = new Journal(db);
    const outbox = new Outbox(db);
    const clock = new FakeClock('2026-11-22T12:00:00Z');
    const r = await receiver(() => 200);
    const agent = new Agent();
    const hub = new EventHub(journal, () => clock.now());
    let paper = false;
    const monitor = new AlarmMonitor({
      journal,
      outbox,
      clock,
      log: silent,
      thresholds: T,
      checkMs: 3_600_000,
      events: hub,
      printer: () => ({ online: true, paperOut: paper, coverOpen: false }),
      pinpad: () => 'connected',
      clockOffsetMs: () => 0,
      webhook: new WebhookSender({
        url: r.url,
        secret: { reveal: () => 'k' },
        timeoutMs: 1000,
        queue: new WebhookQueue(db),
        wallClock: clock,
        dispatcher: agent,
        log: silent,
      }),
      terminal: { terminalId: '42004201', environment: 'sandbox' },
    }).start();
    const sale = journal.open({
      kind: 'sale',
      merchantOrderId: '263260010000001',
      state: 'undoing',
      amount: 990,
      data: { request: { method: 'credit' } },
      input: 'test',
      at: clock.now(),
    });
    // The engine says so first (as the sale machine does), then the journal shows it.
    hub.publish({ type: 'alarm', id: sale.id, code: 'NEEDS_REFUND', message: 'stayed charged' } as never);
    journal.transition(sale.id, { from: 'undoing', to: 'needs-refund', input: 'test', at: clock.now() });
    monitor.check();
    paper = true;
    expect(monitor.check().map((a) => a.code)).toEqual(['NEEDS_REFUND']);
    expect(
      monitor
        .check()
        .map((a) => a.code)
        .sort(),
    ).toEqual(['NEEDS_REFUND', 'PRINTER_PAPER_OUT']);
    paper = false;
    monitor.check();
    expect(monitor.alarms().map((a) => a.code)).toEqual(['NEEDS_REFUND']);
    for (let i = 0; i < 50 && r.got.length < 2; i++) await new Promise((res) => setTimeout(res, 20));
    await monitor.stop();
    const sent = r.got.map((g) => JSON.parse(g.body) as { code: string; source: string });
    expect(sent.map((s) => s.code).sort()).toEqual(['NEEDS_REFUND', 'PRINTER_PAPER_OUT']);
    expect(sent.find((s) => s.code === 'NEEDS_REFUND')!.source).toBe('engine');
    await agent.close();
    await r.close();
    db.close();
  });
});
