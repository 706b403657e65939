/**
 * A chip sale end to end against a virtual pinpad as slow as a real Gertec PPC930 (`--timing
 * ppc930`: secure OPN 3 s, a GIX without id list 8 s, GCX 2.5 s, GOX 2 s, FCX 1 s, from the public
 * log transcao_completa_com_scope.txt): the driver's timeouts meet realistic waits and the sale
 * still ends confirmed, charged once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { startE2e, type E2e } from '../../helpers/e2e.js';
import { sell } from '../../helpers/sale-kit.js';

describe.skipIf(!HAS_SOCAT)("a chip sale against a pinpad with a PPC930's processing times", () => {
  let e: E2e;
  beforeAll(async () => {
    e = await startE2e({ pinpadTiming: 'real' });
  }, 180_000);
  afterAll(async () => {
    await e?.stop();
  });

  it('credit, chip with PIN: confirmed and charged once, every pinpad command answered in its own time', async () => {
    const started = Date.now();
    const s = await sell(e, { lastDigit: 0, via: 'chip' }, { amount: 1000, method: 'credit' }, 180_000);
    expect(s.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'Emv' } });
    expect(s.host).toMatchObject({ status: 2, confirmationStatus: 1, charged: 1000 });
    const state = (await e.sim.control({ cmd: 'state' })) as { received: string[]; timing: unknown };
    expect(state.timing).toEqual({ name: 'ppc930', scale: 1 });
    expect(state.received).toEqual(expect.arrayContaining(['GCX', 'GOX', 'FCX']));
    // not an assertion on time: the figure goes to the log of the run
    console.log(`slow-profile chip sale: ${Date.now() - started} ms, pinpad commands ${state.received.join(' ')}`);
  }, 240_000);
});
