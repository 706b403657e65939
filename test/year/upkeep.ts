// The year run's waits by condition (issue 35), not by time: the terminal on the new day, retention
// caught up with the closed days, the terminal free again after a sale.
import { businessDayBounds, heldJournalIds } from '../../src/operations/index.js';
import Database from '../../src/store/sqlite.js';
import { sleep, type Terminal } from '../chaos/terminal.js';

/** `date` (YYYY-MM-DD) moved by `days`. */
const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** How often a condition is asked again, ms: a cheap local read or request. */
const POLL_MS = 10;

/** Polls `done` every POLL_MS until it holds or `ms` passed; whether it held. */
export async function until(done: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await done()) return true;
    if (Date.now() > end) return false;
    await sleep(POLL_MS);
  }
}

/**
 * Whether retention has archived every closed day it may (docs/operations.md, "Retention"): each
 * closed day past `databaseDays` before `today` is archived, or holds a payment that may still move
 * money (heldJournalIds, the retention's own rule: such a day waits, and is no work left undone).
 */
export function retentionCaughtUp(dbFile: string, today: string, databaseDays: number): boolean {
  const db = new Database(dbFile, { readonly: true });
  try {
    const due = (
      db
        .prepare(
          `SELECT business_date AS d FROM day_closes WHERE business_date <= ?
             AND business_date NOT IN (SELECT business_date FROM day_archives)`,
        )
        .all(addDays(today, -databaseDays)) as { d: string }[]
    ).map((r) => r.d);
    if (due.length === 0) return true;
    const held = heldJournalIds(db);
    return due.every((date) => {
      const { from, to } = businessDayBounds(date);
      const ids = db
        .prepare('SELECT id FROM journal WHERE created_at >= ? AND created_at < ?')
        .all(from.toISOString(), to.toISOString()) as { id: number }[];
      return ids.some((r) => held.has(r.id));
    });
  } finally {
    db.close();
  }
}

/** Until the terminal's business day is `date` (it learns the host's clock from the probe's answer), at most `ms`. */
export async function onDay(t: Terminal, date: string, ms: number): Promise<boolean> {
  return until(async () => (await t.call('GET', '/v1/day/report')).body?.date === date, ms);
}

/** Until no payment holds the terminal (health's `busy`), at most `ms`; a dead daemon holds nothing. */
export async function free(t: Terminal, ms: number): Promise<boolean> {
  return until(
    async () => !t.alive() || (await t.call('GET', '/v1/health').catch(() => undefined))?.body?.busy !== true,
    ms,
  );
}

/** Until the terminal's business day is `date` or later (a resume: the host's clock moved on meanwhile), at most `ms`. */
export async function onOrAfter(t: Terminal, date: string, ms: number): Promise<boolean> {
  return until(async () => String((await t.call('GET', '/v1/day/report')).body?.date ?? '') >= date, ms);
}
