/**
 * How long a code a payer pays (a wallet QR code, a Pix code) lives, one rule for both machines: payable for the
 * validity from when it is shown (`expiresAt`), then watched for a late payment for the margin after
 * (`watchUntil`, which the past-close alarm of ./code-past-close.ts and the watch's own end read).
 */
export interface CodeTimes {
  validityMs: number;
  watchMarginMs: number;
}

/** A code shown at `shownAt`: when it stops being payable and until when it is watched. */
export function codeTimes(shownAt: Date, times: CodeTimes): { expiresAt: string; watchUntil: string } {
  const expires = shownAt.getTime() + times.validityMs;
  return { expiresAt: new Date(expires).toISOString(), watchUntil: watchUntil(expires, times) };
}

/** Until when a code that expires at `expiresAt` (ms or ISO) is watched after it. */
export function watchUntil(expiresAt: number | string, times: Pick<CodeTimes, 'watchMarginMs'>): string {
  const at = typeof expiresAt === 'number' ? expiresAt : Date.parse(expiresAt);
  return new Date(at + times.watchMarginMs).toISOString();
}
