import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';

// The soak found sales slowing as the journal grew (31 sales/s on an empty terminal, 13/s at 50,000
// sales): each delivery asked whether a PaymentId was an e-commerce QR sale's, and health counted the
// outbox, both by reading every row. These are the per-sale queries; each must be answered from an index.
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src');
const openStore = useTempStores('omnipos-plans-');

const plan = (db: ReturnType<typeof openStore>, sql: string, ...args: unknown[]): string =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join('; ');

describe('the per-sale queries read an index, not every row', () => {
  it("whether a PaymentId is an e-commerce QR sale's (every QR-routed delivery asks)", () => {
    const sql =
      "SELECT 1 FROM journal WHERE kind = 'qr' AND json_extract(data, '$.provider') = 'ecommerce' AND json_extract(data, '$.paymentId') = ? LIMIT 1";
    // The query the product runs is this one, word for word (an edit must keep the index usable).
    expect(readFileSync(path.join(SRC, 'factory/qr-provider.ts'), 'utf8')).toContain(sql);
    const db = openStore();
    expect(plan(db, sql, 'p-1')).toMatch(/USING INDEX journal_ecommerce_qr_payment/);
    expect(plan(db, sql, 'p-1')).not.toMatch(/^SCAN journal$/);
  });

  // The year run (s9-disk) found the daemon not answering in 5 s at 3,000 journal rows: every payment
  // listed asks its voids, and every POST /v1/payments its Idempotency-Key, by each row's JSON.
  it.each([
    ['ledger.ts', `SELECT id FROM journal WHERE kind = 'void' AND json_extract(data, '$.sale.id') = ? ORDER BY id`],
    ['ledger.ts', `SELECT state, amount FROM journal WHERE kind = 'void' AND json_extract(data, '$.sale.id') = ?`],
  ])("a sale's voids (%s: every payment listed or shown asks them)", (file, sql) => {
    expect(readFileSync(path.join(SRC, 'engine/void', file), 'utf8')).toContain(sql);
    expect(plan(openStore(), sql, 1)).toMatch(/USING INDEX journal_void_sale/);
  });

  it("a request's Idempotency-Key (every POST /v1/payments asks)", () => {
    const sql = "SELECT * FROM journal WHERE json_extract(data, '$.idempotencyKey') = ?";
    expect(readFileSync(path.join(SRC, 'store/journal.ts'), 'utf8')).toContain(sql);
    expect(plan(openStore(), sql, 'k-1')).toMatch(/USING INDEX journal_idempotency_key/);
  });

  it('the outbox depth health shows counts only the open tasks and the dead letters', () => {
    const db = openStore();
    const outbox = new Outbox(db);
    const source = readFileSync(path.join(SRC, 'store/outbox.ts'), 'utf8');
    const open = `SELECT count(*) AS pending, min(deadline_at) AS oldest
         FROM outbox WHERE done_at IS NULL AND dead_letter_reason IS NULL`;
    const dead = 'SELECT count(*) AS n FROM outbox WHERE dead_letter_reason IS NOT NULL';
    expect(source).toContain(open);
    expect(source).toContain(dead);
    expect(plan(db, open)).toMatch(/USING INDEX outbox_due/);
    expect(plan(db, dead)).toMatch(/USING (COVERING )?INDEX outbox_dead_letters/);
    // And the figures are right: one open, one done, one dead letter.
    const at = new Date('2026-11-26T12:00:00Z');
    const add = (key: string) =>
      outbox.enqueue({ operation: 'sale.confirm', idempotencyKey: key, payload: { merchantOrderId: key }, at });
    add('a');
    outbox.done(add('b').id, at);
    outbox.deadLetter(add('c').id, 'refused');
    expect(outbox.depth()).toMatchObject({ pending: 1, deadLetters: 1 });
  });

  // The adversary for the next one: every JSON path a product query searches the journal by has an
  // index that names it, but for the scans that run once (named here, each with its reason).
  it('every JSON path the journal is searched by is named by an index', () => {
    const once: Record<string, string> = {
      '$.card.expiry': 'expiry-key.ts seals the rows of older versions, once at start',
      '$.sale.card.expiry': 'expiry-key.ts seals the rows of older versions, once at start',
    };
    const indexes = MIGRATIONS.map((m) => m.up)
      .join('\n')
      .split(';')
      .filter((stmt) => /CREATE INDEX \w+ ON journal\(/.test(stmt))
      .join('\n');
    const searched = sourceFiles(SRC)
      .filter((f) => !f.includes(`${path.sep}sandbox${path.sep}`) && !f.endsWith('migrations.ts'))
      .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/FROM journal\b[^`"]*?json_extract\(data, '([^']+)'\)/g)])
      .map((m) => m[1]!);
    expect(searched.length).toBeGreaterThan(3);
    const unindexed = [...new Set(searched)].filter((p) => !indexes.includes(`'${p}'`) && !(p in once));
    expect(unindexed).toEqual([]);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(path.join(dir, d.name)) : d.name.endsWith('.ts') ? [path.join(dir, d.name)] : [],
  );
}
