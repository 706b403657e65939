import { type Db, nextNsu } from '../../store/index.js';
import type { Clock } from '../../core/index.js';
import { buildCancellationCode } from '../qr/code-cancel.js';
import type { QrDisplayPort } from '../qr/code-port.js';
import type { WalletCancellationPort } from './ports.js';
import type { VoidData, VoidInput } from './types.js';

/** What voids of wallet QR sales need (absent: such voids are refused). */
export interface WalletVoidOptions {
  host: WalletCancellationPort;
  /** How long a cancellation code can be paid, ms (the QR sales' validity, which the wallet checks on 81.01). */
  validityMs: number;
  /** How long past its validity the code is still watched for the wallet's late answer, ms. */
  watchMarginMs: number;
  /** How often the host is asked whether the wallet applied the code, ms. */
  pollMs: number;
  /** The customer's display (the pinpad): the code as an image, or a text. */
  display?: QrDisplayPort;
}

/**
 * Builds the cancellation code of void `d` (its own NSU from the terminal's counter, 62.05 its
 * MerchantVoidId so the host lists the void under it) and says what to apply: `code-shown`, or
 * `code-failed` when the sale's code cannot be cancelled (QR_INVALID's message).
 */
export function issueCancellation(db: Db, clock: Clock, validityMs: number, d: VoidData): VoidInput {
  try {
    const issuedAt = clock.now();
    const nsu = nextNsu(db);
    const qrCode = buildCancellationCode({
      original: d.sale.qrCode ?? '',
      nsu,
      issuedAt,
      amount: d.amount,
      referenceLabel: d.merchantVoidId,
    });
    return { kind: 'code-shown', qrCode, nsu, expiresAt: new Date(issuedAt.getTime() + validityMs).toISOString() };
  } catch (e) {
    return { kind: 'code-failed', reason: (e as Error).message };
  }
}

/** Until when a shown code is watched: its validity plus the margin (ISO). */
export function watchUntil(d: VoidData, marginMs: number): string | undefined {
  return d.expiresAt ? new Date(Date.parse(d.expiresAt) + marginMs).toISOString() : undefined;
}
