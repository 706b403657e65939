import { describe, expect, it } from 'vitest';
import { nextDailyClose } from '../../../../src/engine/daily-close.js';
import { pixTransition } from '../../../../src/engine/pix/machine.js';
import type { PixState } from '../../../../src/engine/pix/types.js';
import type { SaleContext } from '../../../../src/engine/sale/types.js';

const creating: PixState = {
  name: 'creating',
  data: {
    request: { amount: 100, payer: { name: 'Ana', document: '52998224725' }, confirmation: 'auto' },
    merchantOrderId: '263260010360011',
  },
};
const ctxAt = (iso: string): SaleContext => ({
  now: new Date(iso),
  attended: true,
  decisionDeadline: (n) => new Date(n.getTime() + 60_000),
});
const plus = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

function createdAt(now: string) {
  const expiresAt = plus(now, 15 * 60_000);
  const s = pixTransition(
    creating,
    {
      kind: 'created',
      result: { kind: 'created', paymentId: 'p', qrCode: 'x' },
      expiresAt,
      watchUntil: plus(expiresAt, 5 * 60_000),
    },
    ctxAt(now),
  );
  if (!s.ok) throw new Error(s.reason);
  return s;
}

/**
 * A Pix code shown near the daily close, as the wallet QR code's (machine.close.test.ts of the QR
 * sale): its validity and its watch for a late payment run past the close, so the alarm goes when it
 * is shown. On 6d64008 the Pix engine had no such alarm — the explorer's Pix charge family found a code
 * shown at 23:58 ending `cancelled` after the close with none before it (2 choices off the default).
 */
describe('a Pix code shown near the daily close', () => {
  const close = nextDailyClose(new Date('2026-11-22T13:00:00Z')).toISOString();

  it('raises QR_PAST_CLOSE before its watch, when the watch ends at or past the close', () => {
    const s = createdAt(plus(close, -2 * 60_000));
    expect(s.state.name).toBe('showing');
    expect(s.effects.map((e) => e.kind)).toEqual(['alarm', 'watch.payment']);
    expect(s.effects[0]).toMatchObject({ code: 'QR_PAST_CLOSE', message: expect.stringMatching(/^Pix sale /) });
  });

  it('raises nothing for a code whose watch ends before the close', () => {
    const s = createdAt('2026-11-22T13:00:00.000Z');
    expect(s.effects.map((e) => e.kind)).toEqual(['watch.payment']);
  });
});
