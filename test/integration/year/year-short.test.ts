import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readProgress } from '../../year/progress.js';
import { runYear } from '../../year/year-run.js';

// Issue 35, "A year simulated", the short version `npm test` runs (`npm run year` is the whole year, by
// hand): three business days on a moved clock, card, wallet QR and Pix sales with a void (the wallet QR the host generates, paid by the wallet), each day closed, a
// SIGKILL in the middle of a sale on the second day, retention at one day: the first days leave the
// database for the archive, and every sale, archived ones included, reconciles with the host's ledger.
const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-year-short-'));
const again = mkdtempSync(path.join(tmpdir(), 'omnipos-year-resumed-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(again, { recursive: true, force: true });
});

describe('a short year', () => {
  it('three days closed, one SIGKILL, days archived and pruned: 0 lost and 0 twice against the ledger', async () => {
    const r = await runYear({ dir, days: 3, salesPerDay: 4, killEvery: 2, databaseDays: 1, monthDays: 3 });
    expect(r.problems).toEqual([]);
    expect(r.kills).toBe(1);
    expect(r.archivedDays).toBeGreaterThanOrEqual(1);
    const [month] = r.months;
    // Archived days left the database: fewer rows in it than sales made.
    expect(month?.journalRows).toBeLessThan(r.sales);
    expect(month?.archiveMiB).toBeGreaterThanOrEqual(0);
    const journal = r.figures.journal as Record<string, number>;
    expect(journal['sale:confirmed']).toBeGreaterThan(0);
    // The wallet paid each day's QR sale (on cfef2df the host refused the terminal-built code, 422.002).
    expect(journal['qr:confirmed']).toBeGreaterThanOrEqual(2);
    expect(journal['qr:cancelled'] ?? 0).toBe(0);
  }, 180_000);

  // The year run is resumable: stopped in the middle of its second day (as a SIGTERM there would), it is
  // started again on the same directory and resumes there; the half-done day is closed at the resume and
  // run again on the next date; every sale of both runs reconciles with the host's ledger.
  it('stopped in the middle of a day and started again on its directory, it resumes there: 0 lost and 0 twice', async () => {
    const o = { dir: again, days: 3, salesPerDay: 4, killEvery: 0, databaseDays: 1, monthDays: 3 };
    const stopped = await runYear({ ...o, stopAt: { day: 1, sale: 3 } });
    expect(stopped.stopped).toBe(true);
    expect(stopped.sales).toBe(7);
    expect(readProgress(again)).toMatchObject({ nextDay: 1, nextDate: '2027-01-05', sales: 4 });
    const notes: Record<string, unknown>[] = [];
    const r = await runYear({ ...o, onNote: (n) => notes.push(n) });
    expect(r.problems).toEqual([]);
    expect(r.stopped).toBe(false);
    expect(r.firstDay).toBe(1);
    // The resume is a restart of the daemon and pinpad, and says so.
    expect(r.restarts).toBe(1);
    expect(notes[0]).toMatchObject({ resumed: { day: 1, date: '2027-01-05', restart: 1 } });
    expect(r.replayed).toEqual(['2027-01-05']);
    // Day 0, the three sales of the half-done day, days 1 and 2 again: every one journaled once.
    expect(r.sales).toBe(4 + 3 + 4 + 4);
    const journal = r.figures.journal as Record<string, number>;
    const payments = Object.entries(journal)
      .filter(([k]) => !k.startsWith('void:'))
      .reduce((a, [, n]) => a + n, 0);
    expect(payments).toBe(r.sales);
    expect(readProgress(again)).toMatchObject({ nextDay: 3, nextDate: '2027-01-08', restarts: 1 });
  }, 240_000);
});
