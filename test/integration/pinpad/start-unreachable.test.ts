import { afterEach, describe, expect, it } from 'vitest';
import { Pinpad, isPinpadError, type PinpadLinkEvent } from '../../../drivers/pinpad/index.js';
import { TcpTransport } from '../../../drivers/transport/tcp.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function until(cond: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a start with the pinpad unreachable', () => {
  it('rejects with why, keeps trying in the background, and finds the pinpad once it is plugged in', async () => {
    // a port where nothing listens now (a pinpad that was there a moment ago)
    const gone = await startVirtualPinpad();
    const port = gone.port;
    await gone.stop();
    const pinpad = new Pinpad({
      transport: () => new TcpTransport({ host: '127.0.0.1', port }),
      probeIntervalMs: 0,
      reconnect: { initialMs: 20, maxMs: 100 },
    });
    cleanup.push(() => pinpad.close());
    const events: PinpadLinkEvent[] = [];
    pinpad.on('link', (e) => events.push(e));
    const err = await pinpad.start().catch((e: unknown) => e);
    expect(isPinpadError(err)).toBe(true);
    expect(pinpad.status).not.toBe('connected');
    await until(() => events.some((e) => e.state === 'reconnecting' && e.attempt >= 2));
    const sim = await startVirtualPinpad({ tcpPort: port });
    cleanup.push(() => sim.stop());
    await until(() => pinpad.status === 'connected');
    expect(events.at(-1)).toMatchObject({ state: 'reconnected' });
    await pinpad.display(['DE VOLTA', '']);
    expect(sim.engine.state.display).toEqual(['DE VOLTA', '']);
  }, 30_000);
});
