import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runYear } from '../../year/year-run.js';

// Issue 35, "A year simulated", the short version `npm test` runs (`npm run year` is the whole year, by
// hand): three business days on a moved clock, card, wallet QR and Pix sales with a void (the wallet QR the host generates, paid by the wallet), each day closed, a
// SIGKILL in the middle of a sale on the second day, retention at one day: the first days leave the
// database for the archive, and every sale, archived ones included, reconciles with the host's ledger.
const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-year-short-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
});
