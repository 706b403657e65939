import type { Db } from './open.js';
import { statement } from './statements.js';

/** Reads a named counter's value (text), or undefined when it was never written. */
export function readCounter(db: Db, name: string): string | undefined {
  const row = statement(db, 'SELECT value FROM counters WHERE name = ?').get(name) as { value: string } | undefined;
  return row?.value;
}

export function writeCounter(db: Db, name: string, value: string): void {
  statement(
    db,
    'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value',
  ).run(name, value);
}

const NSU = 'terminal_nsu';

/**
 * The terminal's next 6-digit NSU (`000001`…`999999`, then `000001` again), committed before it
 * is returned. It identifies a transaction on receipts and in QR object 82.04; it is not unique
 * forever, the MerchantOrderId is.
 */
export function nextNsu(db: Db): string {
  return db
    .transaction(() => {
      const last = Number(readCounter(db, NSU) ?? '0');
      const next = last >= 999_999 ? 1 : last + 1;
      writeCounter(db, NSU, String(next));
      return String(next).padStart(6, '0');
    })
    .immediate();
}
