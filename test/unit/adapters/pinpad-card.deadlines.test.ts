import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommandSpec, RunOptions } from '../../../drivers/pinpad/index.js';
import type { CardPinpad } from '../../../src/adapters/pinpad-card-kit.js';
import { PinpadCardPort } from '../../../src/adapters/pinpad-card.js';

/**
 * The card port's blocking commands after GCX each have their own deadline (scripts/house/pinpad-deadlines.ts found
 * GPN, GOX and MNU sent with the sale's cancel alone on 5147710): a pinpad whose answer never comes ends the read at
 * the deadline, aborting the command, instead of holding the sale until a cancel or a restart.
 */
const STRIPE = {
  cardType: 'stripe',
  cardTypeCode: '00',
  aidTables: [],
  maskedPan: '41111111****1111',
  expiry: '3012',
  serviceCode: '201',
};

/** A pinpad that reads a stripe card at GCX and never answers `held`: the signal it was given is kept. */
function holding(held: string): { pinpad: CardPinpad; signals: Map<string, AbortSignal> } {
  const signals = new Map<string, AbortSignal>();
  const pinpad: CardPinpad = {
    run<Req, Res>(spec: CommandSpec<Req, Res>, _req: Req, opts?: RunOptions): Promise<Res> {
      if (spec.id === 'GCX') return Promise.resolve(STRIPE as Res);
      if (spec.id !== held) return Promise.resolve(undefined as Res);
      const signal = opts?.signal;
      if (signal) signals.set(spec.id, signal);
      return new Promise<Res>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason as Error)));
    },
  };
  return { pinpad, signals };
}

const port = (pinpad: CardPinpad, extra: object = {}): PinpadCardPort =>
  new PinpadCardPort({ pinpad, acquirerIndex: 3, pinKeySlot: 1, dataKeySlot: 2, timeoutS: 2, ...extra });

afterEach(() => vi.useRealTimers());

describe("the card port's blocking commands, held by the pinpad", () => {
  it('a stripe PIN (GPN) held: aborted at (12 digits + ENTER) × SPE_TIMEOUT + 5 s, not before', async () => {
    vi.useFakeTimers();
    const { pinpad, signals } = holding('GPN');
    const read = port(pinpad, { stripePin: () => true }).readCard(
      { merchantOrderId: 'o1', amount: 100, method: 'debit' },
      new AbortController().signal,
    );
    const settled = read.catch((e: unknown) => e);
    // SPE_TIMEOUT 2 s: (13 × 2 + 5) s
    await vi.advanceTimersByTimeAsync(31_000 - 1);
    expect(signals.get('GPN')?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signals.get('GPN')?.aborted).toBe(true);
    expect(await settled).toMatchObject({ name: 'TimeoutError' });
  });

  it('the product menu (MNU) held: aborted at (options + ENTER) × SPE_TIMEOUT + 5 s', async () => {
    vi.useFakeTimers();
    const { pinpad, signals } = holding('MNU');
    const options = [
      { label: 'CREDITO', productId: 1 },
      { label: 'DEBITO', productId: 2 },
    ];
    const read = port(pinpad, { selectProduct: () => ({ kind: 'choose', options }) }).readCard(
      { merchantOrderId: 'o2', amount: 100, method: 'credit' },
      new AbortController().signal,
    );
    const settled = read.catch((e: unknown) => e);
    // two options and ENTER at SPE_TIMEOUT 2 s: (3 × 2 + 5) s
    await vi.advanceTimersByTimeAsync(11_000 - 1);
    expect(signals.get('MNU')?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signals.get('MNU')?.aborted).toBe(true);
    expect(await settled).toMatchObject({ name: 'TimeoutError' });
  });
});
