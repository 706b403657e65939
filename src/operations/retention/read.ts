import { readDayFile } from '../../store/index.js';
import type { ReceiptFacts } from '../../receipt/index.js';
import { OmniposError } from '../../core/index.js';
import { isArchivedDay, type ArchivedDay, type ArchivedPayment } from './archiver.js';

/** One archived day read back from its file (checksum verified first), or undefined when none. */
export function readArchivedDay(archiveDir: string, date: string): ArchivedDay | undefined {
  const doc = readDayFile(archiveDir, date);
  if (doc === undefined) return undefined;
  if (!isArchivedDay(doc))
    throw new OmniposError('STORE_DAMAGED', `the archive of ${date} is not an omnipos day (format unknown)`, { date });
  return doc;
}

/** A payment of an archived day, by its journal id or MerchantOrderId. */
export function archivedPayment(day: ArchivedDay, ref: string | number): ArchivedPayment | undefined {
  return day.payments.find((p) => p.entry.id === ref || p.entry.merchantOrderId === String(ref));
}

/** The facts of an archived payment's receipt (src/receipt builds the paper from them), or why there are none. */
export function archivedReceipt(archiveDir: string, date: string, ref: string | number): ReceiptFacts {
  const day = readArchivedDay(archiveDir, date);
  if (!day) throw new OmniposError('ENGINE_NOT_FOUND', `day ${date} is not in the archive`, { date });
  const p = archivedPayment(day, ref);
  if (!p) throw new OmniposError('ENGINE_NOT_FOUND', `no payment ${String(ref)} in the archive of ${date}`, { date });
  if (!p.receipt)
    throw new OmniposError('RECEIPT_NOT_AVAILABLE', `payment ${String(ref)} of ${date} had no receipt`, { date });
  return p.receipt;
}
