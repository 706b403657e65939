import type { JournalEntry } from '../store/index.js';

/**
 * A journal row's data as the machine of its kind wrote it (SaleData, QrSaleData, PixSaleData,
 * VoidData): the journal keeps it as JSON and gives it back as written, so this is the one place
 * it is read as that type. The caller names the type of the row's kind (check `entry.kind` first).
 */
export function journalData<D extends object>(entry: Pick<JournalEntry, 'data'>): D {
  return entry.data as D;
}
