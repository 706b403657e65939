import { afterEach, describe, expect, it } from 'vitest';
import { Pinpad } from '../../../drivers/pinpad/index.js';
import { TcpTransport } from '../../../drivers/transport/tcp.js';
import type { VirtualPinpad } from '../../../src/sim/pinpad/index.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

/**
 * The idle CAN probe (§2.2.2.3: any CAN is answered EOT) tells an unplugged pinpad from an idle one, but
 * a CAN may clear what the pinpad shows, and behind a vendor library each CAN is a PP_Abort: no probe
 * while the terminal's message or QR code is on the screen, nor on a transport that says it takes none.
 */
const PROBE_MS = 30;
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function driverOn(sim: VirtualPinpad, idleProbe?: false): Promise<Pinpad> {
  const pinpad = new Pinpad({
    transport: () => {
      const t = new TcpTransport({ host: '127.0.0.1', port: sim.port });
      return idleProbe === false ? Object.assign(t, { idleProbe }) : t;
    },
    probeIntervalMs: PROBE_MS,
    reconnect: { enabled: false },
  });
  cleanup.push(() => pinpad.close());
  await pinpad.connect();
  return pinpad;
}

/** Waits until `n` more probe periods went by (counted by the pinpad's own answers to a probe that runs). */
const periods = (n: number): Promise<void> => new Promise((r) => setTimeout(r, n * PROBE_MS));
async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met');
    await periods(1);
  }
}

describe('the idle CAN probe', () => {
  it('runs on an idle line, stops while a message shows, and comes back once a prompt took the screen', async () => {
    const sim = await startVirtualPinpad({ typingMs: 10 });
    cleanup.push(() => sim.stop());
    const pinpad = await driverOn(sim);
    const start = sim.engine.state.cans;
    await until(() => sim.engine.state.cans > start + 1); // it probes an idle line
    await pinpad.display(['PAGUE COM', 'O QR CODE']);
    const shown = sim.engine.state.cans;
    await periods(15);
    expect(sim.engine.state.cans).toBe(shown);
    expect(sim.engine.state.display).toEqual(['PAGUE COM', 'O QR CODE']);
    await pinpad.getData({ message: 7, minDigits: 3, maxDigits: 8, timeoutS: 30 }); // a prompt takes the screen
    await until(() => sim.engine.state.cans > shown);
  });

  it('never runs on a transport that takes no probe (a vendor library: each CAN a PP_Abort)', async () => {
    const sim = await startVirtualPinpad();
    cleanup.push(() => sim.stop());
    await driverOn(sim, false);
    const start = sim.engine.state.cans;
    await periods(15);
    expect(sim.engine.state.cans).toBe(start);
  });
});
