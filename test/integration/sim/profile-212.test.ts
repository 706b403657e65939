/**
 * The driver against the virtual pinpad answering as a 2.12 PPC930 does (`answers: '2.12'`), over
 * real TCP: GIX data in the order and with the 2.12 ids of the public log, DEX options refused.
 * Issue 18 (driver): "2.12 pinpads … all keep working".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectPinpad, startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

describe('the driver and a pinpad with 2.12-style answers', () => {
  it('reads its information from GIX and shows text', async () => {
    const sim = await startVirtualPinpad({ profile: { answers: '2.12', specVersion: '2.12' } }, cleanup);
    const pinpad = await connectPinpad(
      { port: sim.port },
      {
        reconnect: { initialMs: 20, maxMs: 100 },
      },
      cleanup,
    );
    const info = await pinpad.info();
    expect(info).toMatchObject({ source: 'GIX', serialNumber: 'VPP0000000001', specVersion: '2.12' });
    expect(info.keys.dukptPin['01']).toBe('present');
    await pinpad.display(['OLA', '2.12']);
    expect(sim.engine.state.display).toEqual(['OLA', '2.12']);
    await pinpad.displayEx('linha 1\nlinha 2');
    expect(sim.engine.state.display).toEqual(['linha 1', 'linha 2']);
    // DEX_OPTIONS do not exist in 2.12 (protocolo_abecs_2_12.md §3.3.4): the pinpad refuses them, the text must still show
    await pinpad.displayEx('centro\nlinha', { horizontal: 'center' });
    expect(sim.engine.state.display).toEqual(['centro', 'linha']);
  }, 30_000);
});
