import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';
import { EventLog, Journal, MIGRATIONS, Outbox, openDatabase } from '../../../src/store/index.js';
import { WriteHealth, onWriteFailure } from '../../../src/store/write-health.js';

// Issue 23, "a full disk": on a small file system this test makes (a size-limited tmpfs; root can
// mount one). Where mounting is impossible the tests are skipped and say why.
const mountPoint = mkdtempSync(path.join(tmpdir(), 'omnipos-smalldisk-'));
let mounted = false;
let why = '';
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', mountPoint], { stdio: 'pipe' });
  mounted = true;
} catch (e) {
  why = `cannot mount a small tmpfs here (${(e as Error).message.split('\n')[0]}): run as root to test a full disk`;
}
afterAll(() => {
  if (mounted) execFileSync('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});
if (!mounted) console.warn(`disk-full tests skipped: ${why}`);

const free = (dir: string): number => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};

/** Fills the file system up to `leave` free bytes (0: until ENOSPC); returns the filler's path. */
function fill(dir: string, leave: number): string {
  const file = path.join(dir, `filler-${Date.now()}`);
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) {
      const room = free(dir) - leave;
      if (leave > 0 && room <= 0) break;
      try {
        writeSync(fd, chunk, 0, leave > 0 ? Math.min(chunk.length, room) : chunk.length);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw e;
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

describe.skipIf(!mounted)('a full disk: SQLite refuses the commit, nothing half-written, the write heals', () => {
  it('ENOSPC under a journal write is STORE_WRITE_FAILED (503), heard by the listener; the row is not there; with room again the same write commits', () => {
    const dir = mkdtempSync(path.join(mountPoint, 'db-'));
    const db = openDatabase({ file: path.join(dir, 'omnipos.db'), migrations: MIGRATIONS });
    const heard: string[] = [];
    onWriteFailure(db, (e) => heard.push(e.code));
    const journal = new Journal(db);
    const filler = fill(mountPoint, 0);
    const big = { note: 'x'.repeat(256 * 1024) };
    let error: unknown;
    try {
      journal.open({
        kind: 'sale',
        merchantOrderId: '263290010000001',
        state: 'started',
        amount: 100,
        data: big,
        input: 'request',
        at: new Date(),
      });
    } catch (e) {
      error = e;
    }
    expect(isOmniposError(error, 'STORE_WRITE_FAILED'), String(error)).toBe(true);
    expect((error as { httpStatus: number }).httpStatus).toBe(503);
    expect(heard).toEqual(['STORE_WRITE_FAILED']);
    expect(journal.byMerchantOrderId('263290010000001')).toBeUndefined();
    rmSync(filler);
    const entry = journal.open({
      kind: 'sale',
      merchantOrderId: '263290010000001',
      state: 'started',
      amount: 100,
      data: big,
      input: 'request',
      at: new Date(),
    });
    expect(entry.state).toBe('started');
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe.skipIf(!mounted)('a full disk under the outbox and the event log', () => {
  it('ENOSPC under an outbox write and an event-log append is heard as STORE_WRITE_FAILED (before: only the journal was heard); the write health holds until a write commits, then heals by itself', () => {
    const dir = mkdtempSync(path.join(mountPoint, 'outbox-'));
    const db = openDatabase({ file: path.join(dir, 'omnipos.db'), migrations: MIGRATIONS });
    const heard: string[] = [];
    const health = new WriteHealth({
      dir,
      db,
      reserveBytes: 0,
      log: createLogger({ level: 'silent' }),
      now: () => new Date(),
    });
    const outbox = new Outbox(db);
    const events = new EventLog(db);
    const task = outbox.enqueue({
      operation: 'confirm',
      idempotencyKey: 'confirm-1',
      payload: { paymentId: 'p-1' },
      at: new Date(),
    });
    onWriteFailure(
      db,
      (e) => {
        heard.push(e.code);
        health.failed(e);
      },
      () => health.committed(),
    );
    const big = { note: 'x'.repeat(512 * 1024) };
    const filler = fill(mountPoint, 0);
    try {
      expect(() =>
        outbox.enqueue({ operation: 'confirm', idempotencyKey: 'confirm-2', payload: big, at: new Date() }),
      ).toThrow(/disk is full|SQLITE_FULL/);
      expect(heard).toEqual(['STORE_WRITE_FAILED']);
      expect(() => events.append('2026-11-25', new Date().toISOString(), big)).toThrow();
      expect(heard).toEqual(['STORE_WRITE_FAILED', 'STORE_WRITE_FAILED']);
      expect(outbox.byKey('confirm-2')).toBeUndefined();
      // reserve 0: only the failed write holds the alarm, until a write commits
      expect(health.problem() ?? '').toMatch(/a write to the database failed \(SQLITE_FULL|KiB free/);
    } finally {
      rmSync(filler);
    }
    expect(health.problem()).toBeUndefined();
    outbox.done(task.id, new Date());
    expect(outbox.open()).toEqual([]);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe.skipIf(!mounted)('a full disk under the daemon', () => {
  let t: TestDaemon | undefined;
  beforeAll(async () => {
    t = await startTestDaemon({
      stateDir: mkdtempSync(path.join(mountPoint, 'state-')),
      deps: { diskReserveBytes: 2 * 1024 * 1024 },
    });
  });
  afterAll(async () => {
    await t?.stop();
  });
  const call: TestDaemon['call'] = (method, p, body) => t!.call(method, p, body);
  const idle = async (): Promise<void> => {
    for (let i = 0; i < 400; i++) {
      if (!(await call('GET', '/v1/health')).body.busy) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the terminal stayed busy');
  };

  it('below the reserve no new payment starts (503 STORE_WRITE_FAILED), health says why; with room again payments start by themselves', async () => {
    const ok = await call('POST', '/v1/payments', { amount: 2510, method: 'credit' });
    expect(ok.status).toBe(202);
    await idle();

    const filler = fill(mountPoint, 1024 * 1024);
    const refused = await call('POST', '/v1/payments', { amount: 2510, method: 'credit' });
    expect(refused.status).toBe(503);
    expect((refused.body.error as { code: string }).code).toBe('STORE_WRITE_FAILED');
    expect((refused.body.error as { message: string }).message).toMatch(/KiB free on .*below the 2048 KiB kept/);
    const health = await call('GET', '/v1/health');
    expect(health.body.problems).toContain('alarm: STORE_WRITE_FAILED');
    const qr = await call('POST', '/v1/payments', { amount: 2610, method: 'wallet-qr', qrModality: 'credit' });
    expect(qr.status).toBe(503);

    rmSync(filler);
    const again = await call('POST', '/v1/payments', { amount: 2510, method: 'credit' });
    expect(again.status).toBe(202);
    expect((await call('GET', '/v1/health')).body.problems).not.toContain('alarm: STORE_WRITE_FAILED');
    await idle();
  });

  it('below the reserve a payment already in flight still finishes: the cash register confirms it, the outbox delivers the confirmation', async () => {
    const created = await call('POST', '/v1/payments', { amount: 2510, method: 'credit', confirmation: 'ecr' });
    expect(created.status).toBe(202);
    const id = created.body.id as number;
    const status = async (): Promise<string> => (await call('GET', `/v1/payments/${id}`)).body.status as string;
    for (let i = 0; i < 400 && (await status()) === 'pending'; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await status()).toBe('approved');
    const filler = fill(mountPoint, 1024 * 1024);
    try {
      expect((await call('POST', '/v1/payments', { amount: 2510, method: 'credit' })).status).toBe(503);
      const confirmed = await call('POST', `/v1/payments/${id}/confirm`);
      expect(confirmed.status).toBe(200);
      for (let i = 0; i < 400 && (await status()) !== 'confirmed'; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await status()).toBe('confirmed');
      expect(((await call('GET', '/v1/health')).body.outbox as { pending: number }).pending).toBe(0);
    } finally {
      rmSync(filler);
    }
  });
});
