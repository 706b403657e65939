import { OmniposError } from '../core/index.js';
import type { OwnerDeps } from './owner-deps.js';

/**
 * Before a sale starts: the terminal may sell (`canSell`), and an unattended terminal asks the
 * printer's status — paper out, cover open or offline refuses the sale before the card is read,
 * unless the request declined the receipt (`receipt: false`).
 */
export async function beforeSale(
  deps: Pick<OwnerDeps, 'canSell' | 'attended' | 'receipt'>,
  request: { receipt?: boolean },
): Promise<void> {
  deps.canSell?.();
  if (deps.attended || request.receipt === false || !deps.receipt.ready) return;
  let r;
  try {
    r = await deps.receipt.ready();
  } catch (e) {
    r = { ready: false as const, reason: (e as Error).message };
  }
  if (!r.ready) {
    throw new OmniposError(
      'RECEIPT_PRINTER_NOT_READY',
      `the receipt printer cannot print (${r.reason}): ask again with "receipt": false to sell without a receipt`,
      { reason: r.reason },
    );
  }
}
