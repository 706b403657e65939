import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log/index.js';
import { DiskWatch, Journal, openTerminalDatabase, WriteHealth } from '../../../src/store/index.js';

// Issue 35, "Disk watched": the disk alarm (DISK_LOW) is raised well before a full disk stops every
// sale (STORE_WRITE_FAILED), with the days left at the current rate. A real small file system: a
// 24 MiB ext2 image on a loop device (as disk-eio.test.ts does; it needs root and loop devices and
// skips, saying why, elsewhere). The journal fills it on a moved clock (one day per batch of sales).
const root = mkdtempSync(path.join(tmpdir(), 'omnipos-disklow-'));
const img = path.join(root, 'disk.img');
const mnt = path.join(root, 'mnt');
let loop = '';
let mounted = false;
let why = '';
try {
  mkdirSync(mnt);
  execFileSync('truncate', ['-s', '24m', img]);
  loop = execFileSync('losetup', ['-f', '--show', img], { encoding: 'utf8' }).trim();
  execFileSync('mkfs.ext2', ['-q', '-m', '0', loop], { stdio: 'pipe' });
  execFileSync('mount', [loop, mnt], { stdio: 'pipe' });
  mounted = true;
} catch (e) {
  why = `cannot make a small file system here (${(e as Error).message.split('\n')[0]}): run as root with loop devices`;
}
afterAll(() => {
  if (mounted) execFileSync('umount', ['-l', mnt]);
  if (loop) execFileSync('losetup', ['-d', loop]);
  rmSync(root, { recursive: true, force: true });
});
if (!mounted) console.warn(`disk-low tests skipped: ${why}`);

const silent = createLogger({ level: 'silent' });
const DAY = 86_400_000;

describe.skipIf(!mounted)('the disk alarm on a small file system', () => {
  it('DISK_LOW is raised, with the days left, before STORE_WRITE_FAILED stops the sales (before: nothing warned until sales stopped)', () => {
    const stateDir = path.join(mnt, 'state');
    const db = openTerminalDatabase(stateDir);
    let now = Date.parse('2026-03-02T15:00:00Z');
    const journal = new Journal(db);
    const health = new WriteHealth({
      dir: stateDir,
      db,
      reserveBytes: 2 * 1024 * 1024,
      log: silent,
      now: () => new Date(now),
    });
    const disk = new DiskWatch({
      stateDir,
      lowBytes: 3 * 1024 * 1024,
      lowDays: 10,
      reserveBytes: 2 * 1024 * 1024,
      log: silent,
      now: () => new Date(now),
    });
    let n = 0;
    let alarmDay: number | undefined;
    let alarm: ReturnType<DiskWatch['alarms']>[number] | undefined;
    let stopDay: number | undefined;
    for (let day = 0; day < 200 && stopDay === undefined; day++) {
      const [a] = disk.alarms();
      if (a && alarmDay === undefined) {
        alarmDay = day;
        alarm = a;
      }
      if (health.problem() !== undefined) {
        stopDay = day;
        break;
      }
      try {
        for (let i = 0; i < 10; i++) {
          n++;
          journal.open({
            kind: 'sale',
            merchantOrderId: `26061001${String(n).padStart(7, '0')}`,
            state: 'started',
            amount: 1000,
            data: { request: { method: 'credit', amount: 1000, installments: 1 }, note: 'x'.repeat(40_000) },
            input: 'start',
            at: new Date(now),
          });
        }
      } catch (e) {
        expect((e as { code?: string }).code).toBe('STORE_WRITE_FAILED');
        stopDay = day;
      }
      now += DAY;
    }
    expect(stopDay, 'the disk filled').toBeDefined();
    expect(alarmDay, 'DISK_LOW raised').toBeDefined();
    expect(alarmDay as number).toBeLessThan(stopDay as number);
    // Raised by the rate, days before the bytes alone: with the days left at the current rate.
    expect(alarm?.message).toMatch(/days of free space left .* at the current rate/);
    expect(alarm?.context.daysLeft).toBeGreaterThan(0);
    expect(alarm?.context.daysLeft).toBeLessThan(10);
    expect((stopDay as number) - (alarmDay as number)).toBeGreaterThanOrEqual(3);
    db.close();
  });
});
