import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardSim } from '../../../src/sim/pinpad/card/index.js';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';

/**
 * A chip card at the end of its life. The application transaction counter (9F36) is two bytes and
 * a card never wraps it (EMV Book 3: the ATC counts every GENERATE AC; at its limit the application
 * is blocked for good). Found by the 100,000-sale soak on one test card: at sale 65,536 the virtual
 * card's ATC went to 0x10000, which its own TLV writer could not encode, and every sale after it
 * ended "GOX040 (ST_INTERR)" — a pinpad fault no real card causes. The card now ends as a real one
 * does: its last transaction carries ATC FFFF, and the next read is refused "application
 * invalidated" (§3.1.1 ST_CARDINVALIDAT 067); the terminal ends that sale before anything reaches
 * the host, and no ATC past FFFF is ever sent.
 */
const FINAL = ['confirmed', 'approved', 'declined', 'failed', 'undone', 'aborted'];

describe('a chip card whose transaction counter reaches its limit', () => {
  let t: TestDaemon;
  const pan = '4761730000000060'; // tables/test-cards.json: "sandbox card ending 0" (approves)
  beforeAll(async () => {
    t = await startTestDaemon({ prefix: 'omnipos-atc-limit-' });
  });
  afterAll(async () => t?.stop());

  async function chipSale(card: { pan: string } | { lastDigit: number } = { pan }): Promise<{
    state: string;
    data: Record<string, unknown>;
  }> {
    const sim = cardSim(t.pinpad.state);
    const sel = sim.deck.choose({ ...card, via: 'chip', pin: 'right' });
    if (!sel.ok) throw new Error(sel.error);
    const created = await t.call('POST', '/v1/payments', { amount: 1000, method: 'credit', receipt: false });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.id as number;
    for (let i = 0; i < 800; i++) {
      const e = t.journal.get(id)!;
      if (FINAL.includes(e.state) && !t.busy) return { state: e.state, data: e.data };
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`sale ${id} did not end`);
  }

  it('the last transaction carries ATC FFFF; the next read is refused ST_CARDINVALIDAT and nothing reaches the host', async () => {
    const sim = cardSim(t.pinpad.state);
    sim.atc.set(pan, 0xfffe); // a card 65,534 transactions old

    const last = await chipSale();
    expect(last.state).toBe('confirmed');
    expect((last.data.emv as Record<string, string>)['9F36']).toBe('FFFF');
    expect(sim.atc.get(pan)).toBe(0xffff);

    const after = await chipSale();
    expect(after.state).toBe('aborted');
    expect(String(after.data.reason)).toMatch(/067 \(ST_CARDINVALIDAT\)/);
    expect(after.data.paymentId).toBeUndefined(); // never sent to the host
    expect(sim.atc.get(pan)).toBe(0xffff); // the counter never wraps

    // another card still sells on the same terminal
    expect((await chipSale({ lastDigit: 1 })).state).toBe('confirmed');
  }, 60_000);
});
