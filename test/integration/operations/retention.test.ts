import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import {
  archivedReceipt,
  DayBook,
  DayRetention,
  readArchivedDay,
  supportFiles,
  type DayCloseResult,
} from '../../../src/operations/index.js';
import { paymentReceipt, receiptText, type ReceiptFacts } from '../../../src/receipt/index.js';
import { Journal, listDayFiles, openTerminalDatabase, type JournalEntry } from '../../../src/store/index.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

// Issue 35, "Retention": a closed day whose payments are all settled leaves the database for its
// archive file after `databaseDays`; its report and a receipt read back from the file; a day with a
// sale still pending at its close stays whole. Before this change the journal kept every row forever.

const log = createLogger({ level: 'silent' });
const tempDir = useTempDirs();
const DAY = 86_400_000;

/** What the sale engine's receiptSubject makes of a card sale's data (src/engine/sale/engine.ts). */
function receiptOf(e: JournalEntry): ReceiptFacts | undefined {
  const d = e.data as { request: { method: 'credit'; installments: number }; nsu?: string; authorizationCode?: string };
  if (e.state !== 'confirmed') return undefined;
  return {
    merchantOrderId: e.merchantOrderId,
    paymentType: d.request.method,
    amount: e.amount,
    installments: d.request.installments,
    ...(d.nsu ? { nsu: d.nsu } : {}),
    ...(d.authorizationCode ? { authorizationCode: d.authorizationCode } : {}),
    maskedPan: '476173******0060',
  };
}

function terminal() {
  const stateDir = tempDir('omnipos-retention-');
  const db = openTerminalDatabase(stateDir);
  const journal = new Journal(db);
  const clock = new FakeClock('2026-03-02T15:00:00.000Z');
  const archiveDir = path.join(stateDir, 'archive');
  const book = new DayBook({ db, journal, clock, log, environment: 'sandbox', archiveDir });
  const retention = new DayRetention({
    db,
    journal,
    archiveDir,
    clock,
    log,
    databaseDays: 90,
    archiveDays: 1830,
    receiptOf,
  });
  let n = 0;
  const sale = (state: string, amount = 1000): JournalEntry => {
    n++;
    const at = clock.now();
    const e = journal.open({
      kind: 'sale',
      merchantOrderId: `26061001${String(n).padStart(7, '0')}`,
      state: 'started',
      amount,
      data: {
        request: { method: 'credit', amount, installments: 1 },
        nsu: String(100000 + n),
        authorizationCode: `A${n}`,
        card: { brandId: 1, productId: 10 },
      },
      input: 'start',
      at,
    });
    return state === 'started' ? e : journal.transition(e.id, { from: 'started', to: state, input: 'host', at });
  };
  return { stateDir, db, journal, clock, book, retention, archiveDir, sale };
}

describe('retention: closed days archived, then pruned', () => {
  it('a day archived and pruned: its report and a receipt read back from the archive (before: the journal kept every day forever)', async () => {
    const t = terminal();
    const sales = [t.sale('confirmed', 1500), t.sale('declined', 700), t.sale('confirmed', 2500)];
    const close: DayCloseResult = await t.book.close('2026-03-02');
    expect(close.report.totals.net).toBe(4000);

    t.clock.advance(89 * DAY);
    expect(t.retention.step().archived).toEqual([]);
    t.clock.advance(2 * DAY);
    const step = t.retention.step();
    expect(step.archived.map((a) => a.date)).toEqual(['2026-03-02']);

    // Gone from the database: the rows, their transitions, the close.
    expect(t.db.prepare('SELECT count(*) AS n FROM journal').get()).toEqual({ n: 0 });
    expect(t.db.prepare('SELECT count(*) AS n FROM journal_transitions').get()).toEqual({ n: 0 });
    expect(t.db.prepare('SELECT count(*) AS n FROM day_closes').get()).toEqual({ n: 0 });
    expect(listDayFiles(t.archiveDir).map((f) => f.date)).toEqual(['2026-03-02']);

    // The report, as closed, from the file (what `omnipos day report --date` prints).
    const book = new DayBook({
      db: t.db,
      journal: t.journal,
      clock: t.clock,
      log,
      environment: 'sandbox',
      archiveDir: t.archiveDir,
    });
    expect(book.report('2026-03-02')).toEqual(close.report);
    // The support bundle carries it too (`omnipos support bundle --date`).
    const bundle = supportFiles({
      config: loadConfig({ env: { OMNIPOS_STATE_DIR: t.stateDir } }),
      db: t.db,
      clock: t.clock,
      version: 'test',
      health: { reachable: false, reason: 'no daemon in this test' },
      dates: ['2026-03-02'],
    });
    const fromBundle = bundle.find((f) => f.name === 'day-2026-03-02.json')?.data as string;
    expect((JSON.parse(fromBundle) as { totals: { net: number } }).totals.net).toBe(4000);
    expect(bundle.find((f) => f.name === 'archive.json')?.data).toContain(close.report.date);
    // Closing it again answers the archived close and writes nothing.
    expect((await book.close('2026-03-02')).alreadyClosed).toBe(true);

    // A receipt, from the archive, as the paper said it.
    const facts = archivedReceipt(t.archiveDir, '2026-03-02', sales[2]?.merchantOrderId as string);
    const text = receiptText(paymentReceipt(facts, { environment: 'sandbox', columns: 48, reprint: true }), 48);
    expect(text).toContain('25,00');
    expect(text).toContain(`${100000 + 3}`);
    expect(text).not.toContain('4761730000000060');
    // The declined sale is in the archive with its transitions, without a receipt.
    const day = readArchivedDay(t.archiveDir, '2026-03-02');
    expect(day?.payments.map((p) => [p.entry.state, p.transitions.length, p.receipt !== undefined])).toEqual([
      ['confirmed', 2, true],
      ['declined', 2, false],
      ['confirmed', 2, true],
    ]);
  });

  it('a sale still pending at its close is not pruned: its day stays whole until the sale settles', async () => {
    const t = terminal();
    t.sale('confirmed');
    const pending = t.sale('awaiting-decision', 999);
    await t.book.close('2026-03-02');
    t.clock.advance(DAY);
    t.sale('confirmed');
    await t.book.close('2026-03-03');
    t.clock.advance(120 * DAY);

    const step = t.retention.step(5);
    expect(step.archived.map((a) => a.date)).toEqual(['2026-03-03']);
    expect(step.heldDays).toEqual([expect.objectContaining({ date: '2026-03-02', held: [pending.id] })]);
    expect(t.journal.get(pending.id)?.state).toBe('awaiting-decision');
    expect(t.db.prepare("SELECT count(*) AS n FROM day_closes WHERE business_date = '2026-03-02'").get()).toEqual({
      n: 1,
    });

    // A waiting outbox task holds its row too, even once the state is final.
    t.journal.transition(pending.id, { from: 'awaiting-decision', to: 'confirmed', input: 'ecr', at: t.clock.now() });
    t.db
      .prepare(
        "INSERT INTO outbox (journal_id, operation, idempotency_key, payload, next_try_at, created_at) VALUES (?, 'confirm', 'k1', '{}', ?, ?)",
      )
      .run(pending.id, t.clock.now().toISOString(), t.clock.now().toISOString());
    expect(t.retention.step().heldDays.map((d) => d.held)).toEqual([[pending.id]]);
    t.db.prepare('UPDATE outbox SET done_at = ? WHERE journal_id = ?').run(t.clock.now().toISOString(), pending.id);
    expect(t.retention.step().archived.map((a) => a.date)).toEqual(['2026-03-02']);
    expect(t.db.prepare('SELECT count(*) AS n FROM outbox').get()).toEqual({ n: 0 });
  });

  // The year run's reconciliation found it (UNIQUE constraint failed: journal.id, merging the archive back):
  // once retention had archived every row, SQLite gave the next sale id 1 again, an id the cash register
  // already held for an archived payment. Fails on 5147710 (the new sale got id 1).
  it('a payment id is never given twice: after retention archived every row, the next sale takes an id above the archived ones', async () => {
    const t = terminal();
    const archived = [t.sale('confirmed'), t.sale('confirmed'), t.sale('declined')];
    await t.book.close('2026-03-02');
    t.clock.advance(91 * DAY);
    expect(t.retention.step().archived.map((a) => a.date)).toEqual(['2026-03-02']);
    expect(t.db.prepare('SELECT count(*) AS n FROM journal').get()).toEqual({ n: 0 });

    const next = t.sale('confirmed');
    const archivedIds = (readArchivedDay(t.archiveDir, '2026-03-02')?.payments ?? []).map((p) => p.entry.id);
    expect(archivedIds).toEqual(archived.map((e) => e.id));
    expect(next.id).toBeGreaterThan(Math.max(...archivedIds));
    // And across a restart of the database (the floor is in the file, not in memory).
    t.db.close();
    const again = new Journal(openTerminalDatabase(t.stateDir));
    const after = again.open({
      kind: 'sale',
      merchantOrderId: '260610019999999',
      state: 'started',
      amount: 100,
      data: {},
      input: 'start',
      at: t.clock.now(),
    });
    expect(after.id).toBe(next.id + 1);
  });

  it('a day that was never closed is kept whole, however old', () => {
    const t = terminal();
    t.sale('confirmed');
    t.clock.advance(400 * DAY);
    expect(t.retention.step(5).archived).toEqual([]);
    expect(t.db.prepare('SELECT count(*) AS n FROM journal').get()).toEqual({ n: 1 });
  });

  it('a close leaves day_closes only once its archive is recorded (the trigger still refuses any other delete)', async () => {
    const t = terminal();
    t.sale('confirmed');
    await t.book.close('2026-03-02');
    expect(() => t.db.prepare('DELETE FROM day_closes').run()).toThrow(/immutable until it is archived/);
  });

  it('an archive file whose bytes changed is refused, never read; the archive goes after its own period', async () => {
    const t = terminal();
    t.sale('confirmed');
    await t.book.close('2026-03-02');
    t.clock.advance(100 * DAY);
    t.retention.step();
    const [file] = listDayFiles(t.archiveDir);
    const bytes = readFileSync(file?.file as string);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 5) ^ 0xff, bytes.length - 5);
    writeFileSync(file?.file as string, bytes);
    expect(() => readArchivedDay(t.archiveDir, '2026-03-02')).toThrow(/does not match its checksum/);
    t.clock.advance(1830 * DAY);
    expect(t.retention.step().expired).toEqual(['2026-03-02']);
    expect(listDayFiles(t.archiveDir)).toEqual([]);
    // A day gone with its archive is never closed again (an empty close would stand for it).
    await expect(t.book.close('2026-03-02')).rejects.toThrow(/archived, and its archive's period is over/);
    expect(
      t.db.prepare("SELECT deleted_at IS NOT NULL AS gone FROM day_archives WHERE business_date = '2026-03-02'").get(),
    ).toEqual({ gone: 1 });
  });
});
