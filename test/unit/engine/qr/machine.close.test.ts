import { describe, expect, it } from 'vitest';
import { nextDailyClose } from '../../../../src/engine/daily-close.js';
import { qrTransition } from '../../../../src/engine/qr/machine.js';
import type { QrState } from '../../../../src/engine/qr/types.js';
import type { SaleContext } from '../../../../src/engine/sale/types.js';

const start: QrState = {
  name: 'started',
  data: {
    request: { amount: 100, method: 'credit', installments: 1, interest: 'ByMerchant', confirmation: 'auto' },
    merchantOrderId: '263260010360009',
  },
};
const ctxAt = (iso: string): SaleContext => ({
  now: new Date(iso),
  attended: true,
  decisionDeadline: (n) => new Date(n.getTime() + 60_000),
});
const plus = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

function shownAt(now: string) {
  const expiresAt = plus(now, 15 * 60_000);
  const s = qrTransition(
    start,
    { kind: 'shown', qrCode: 'x', nsu: '000001', expiresAt, watchUntil: plus(expiresAt, 5 * 60_000) },
    ctxAt(now),
  );
  if (!s.ok) throw new Error(s.reason);
  return s;
}

/**
 * A wallet QR code shown inside the close margin (issue 29): its validity and its watch for a late
 * payment run past the daily close, so the alarm goes when it is shown, before the close. On cfef2df
 * no alarm was raised and the explorer's full run found the sale open past the close without one.
 */
describe('a wallet QR code shown near the daily close', () => {
  it('raises QR_PAST_CLOSE when shown, if its watch ends at or past the close of the day', () => {
    const close = nextDailyClose(new Date('2026-11-22T13:00:00Z')).toISOString();
    const s = shownAt(plus(close, -10 * 60_000));
    expect(s.state.name).toBe('showing');
    expect(s.effects).toContainEqual(expect.objectContaining({ kind: 'alarm', code: 'QR_PAST_CLOSE' }));
  });

  // The effects run one after another and the watch lasts until the code's end: an alarm after it
  // went off only past the close (the explorer's full run, 2 choices off the default, on s9-money).
  it('puts the alarm before the watch, so it goes before the close and not when the watch ends', () => {
    const close = nextDailyClose(new Date('2026-11-22T13:00:00Z')).toISOString();
    const s = shownAt(plus(close, -2 * 60_000));
    expect(s.effects.map((e) => e.kind)).toEqual(['alarm', 'watch.payment']);
  });

  it('raises nothing for a code whose watch ends before the close', () => {
    const s = shownAt('2026-11-22T13:00:00.000Z');
    expect(s.effects.map((e) => e.kind)).toEqual(['watch.payment']);
  });
});
