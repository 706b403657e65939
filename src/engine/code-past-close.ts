import type { AlarmCode } from '../core/index.js';
import { nextDailyClose } from './daily-close.js';

/**
 * A code (a wallet QR code, a Pix code) shown so near the daily close that it may still be paid,
 * or watched for a late payment, after it (`watchUntil` at or past the close of the day it is
 * shown in): the alarm goes when the code is shown, before the close, since its end may fall on
 * the next business day (the host confirms at the close what is pending; the money invariant:
 * nothing open past the close without an alarm before it). One rule for every code a payer pays;
 * the machines put it before their watch, whose effects run in turn.
 */
export function codePastClose(
  what: string,
  merchantOrderId: string,
  watchUntil: string,
  now: Date,
): { kind: 'alarm'; code: AlarmCode; message: string }[] {
  const close = nextDailyClose(now);
  if (Date.parse(watchUntil) < close.getTime()) return [];
  return [
    {
      kind: 'alarm',
      code: 'QR_PAST_CLOSE',
      message: `${what} ${merchantOrderId} shown until ${watchUntil}, past the daily close ${close.toISOString()}: check it on the next day's report`,
    },
  ];
}
