import { afterEach, describe, expect, it } from 'vitest';
import {
  CLEAR_LAYER,
  OPN_CLASSIC,
  Pinpad,
  PinpadError,
  encodeResponse,
  isPinpadError,
  type PacketLayer,
  type PinpadLinkEvent,
  type PinpadNotification,
} from '../../../drivers/pinpad/index.js';
import type { SimHandler } from '../../../src/sim/pinpad/index.js';
import { TcpTransport } from '../../../drivers/transport/tcp.js';
import { SANDBOX_KEYS } from '../../../tables/sandbox-keys.js';
import { TransportError } from '../../../drivers/transport/transport.js';
import { type VirtualPinpadOptions } from '../../../src/sim/pinpad/server.js';
import { connectPinpad, startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

const FAST = { ackMs: 300, responseMs: 800, eotMs: 300, silenceMs: 60 };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(simOpts: VirtualPinpadOptions = {}, probeIntervalMs = 0) {
  const sim = await startVirtualPinpad(simOpts, cleanup);
  const pinpad = new Pinpad({
    transport: () => new TcpTransport({ host: '127.0.0.1', port: sim.port }),
    timings: FAST,
    probeIntervalMs,
    reconnect: { initialMs: 20, maxMs: 100 },
  });
  cleanup.push(() => pinpad.close());
  const events: PinpadLinkEvent[] = [];
  pinpad.on('link', (e) => events.push(e));
  await pinpad.connect();
  return { sim, pinpad, events };
}

describe('Pinpad driver against the virtual pinpad over TCP loopback', () => {
  it('opens the session (CAN, then OPN) and answers info from GIX', async () => {
    const { sim, pinpad, events } = await setup();
    expect(events).toEqual([{ state: 'connected' }]);
    expect(sim.engine.state.received).toEqual(['OPN']);
    const info = await pinpad.info();
    expect(info).toMatchObject({
      source: 'GIX',
      manufacturer: 'OMNIPOS VIRTUAL',
      model: 'VPP-1;8MB',
      serialNumber: 'VPP0000000001',
      specVersion: '2.20',
    });
    expect(info.keys.dukptPin['01']).toBe('present');
    expect(info.keys.dukptPin['02']).toBe('absent');
    expect(info.dukptPinKsn).toEqual({ '01': SANDBOX_KEYS.pinInitialKsn });
    expect(sim.engine.state.received).toEqual(['OPN', 'GIX', 'GIX']);
  });

  it('falls back to GIN on a classic-only pinpad (GIX answered with ERR010)', async () => {
    const { sim, pinpad } = await setup({ profile: { classicOnly: true } });
    const info = await pinpad.info();
    expect(info).toMatchObject({
      source: 'GIN',
      manufacturer: 'OMNIPOS VIRTUAL',
      serialNumber: 'VPP0000000001',
      contactless: true,
      keys: { dukptPin: { '01': 'present' } },
    });
    expect(sim.engine.state.received).toEqual(['OPN', 'GIX', 'GIN', 'GIN']);
  });

  it('displays with DSP and DEX, and reads GCD with a notification', async () => {
    const { sim, pinpad } = await setup();
    await pinpad.display(['OLA', 'MUNDO ÇÃ']);
    expect(sim.engine.state.display).toEqual(['OLA', 'MUNDO ÇÃ']);
    await pinpad.displayEx('linha 1\nlinha 2', { horizontal: 'center' });
    expect(sim.engine.state.display).toEqual(['linha 1', 'linha 2']);
    const notes: PinpadNotification[] = [];
    pinpad.on('notification', (n) => notes.push(n));
    sim.engine.type('987654321');
    expect(await pinpad.getData({ message: 9, maxDigits: 10, timeoutS: 60 })).toBe('987654321');
    expect(notes).toEqual([{ command: 'GCD', text: 'DIGITE O RG' }]);
  });

  it('reports a pinpad status as PINPAD_STATUS with its name', async () => {
    const { pinpad } = await setup();
    await expect(pinpad.getData({ message: 0x99 })).rejects.toMatchObject({
      code: 'PINPAD_STATUS',
      context: { statusName: 'ST_INVPARM' },
    });
  });

  it('cancels a blocking command with the AbortSignal (CAN answered by EOT) and the next command works', async () => {
    const { sim, pinpad } = await setup({ typingMs: null });
    const ac = new AbortController();
    const p = pinpad.getData({ message: 1 }, { signal: ac.signal });
    await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    await expect(p).rejects.toSatisfy((e) => isPinpadError(e, 'PINPAD_CANCELLED'));
    await pinpad.display('depois');
    expect(sim.engine.state.display[0]).toBe('depois');
  });

  it('takes a packet layer after OPN at both ends (how the secure channel of issue 5 slots in)', async () => {
    const toy: PacketLayer = {
      seal: (d) => Uint8Array.from([0x12, ...d.map((b) => b ^ 0x5a)]),
      open: (d) => {
        if (d[0] !== 0x12) throw new PinpadError('PINPAD_PROTOCOL', 'not sealed', {});
        return Uint8Array.from(d.subarray(1).map((b) => b ^ 0x5a));
      },
    };
    const secureOpn: SimHandler = (_cmd, ctx) => {
      ctx.setLayerAfterResponse(toy);
      return encodeResponse('OPN', 0);
    };
    const sim = await startVirtualPinpad({ handlers: new Map([['OPN', secureOpn]]) }, cleanup);
    const pinpad = await connectPinpad(
      { port: sim.port },
      {
        timings: FAST,
        probeIntervalMs: 0,
        openSession: async (s) => {
          await s.run(OPN_CLASSIC, undefined);
          s.setLayer(toy);
        },
      },
      cleanup,
    );
    await pinpad.display('selado');
    expect(sim.engine.state.display[0]).toBe('selado');
    expect((await pinpad.info()).serialNumber).toBe('VPP0000000001');
    sim.engine.layer = CLEAR_LAYER;
    await expect(pinpad.display('x')).rejects.toMatchObject({ code: 'PINPAD_PROTOCOL' });
  });

  it('reconnects with exponential backoff capped at maxMs while the pinpad is away, refusing commands at once meanwhile', async () => {
    const { sim, pinpad, events } = await setup();
    await sim.unplug();
    const until = async (pred: () => boolean) => {
      const end = Date.now() + 5000;
      while (!pred()) {
        if (Date.now() > end) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    await until(() => events.filter((e) => e.state === 'reconnecting').length >= 5);
    // At once: a driver that waited for the link would end on its command timeout, with another code.
    await expect(pinpad.display('agora nao')).rejects.toMatchObject({
      code: 'PINPAD_DISCONNECTED',
      context: { status: 'reconnecting' },
    });
    expect(events[1]).toMatchObject({ state: 'disconnected' });
    const delays = events.filter((e) => e.state === 'reconnecting').map((e) => (e as { delayMs: number }).delayMs);
    expect(delays.slice(0, 5)).toEqual([20, 40, 80, 100, 100]);
    await sim.replug();
    await until(() => pinpad.status === 'connected');
    expect(events.at(-1)).toMatchObject({ state: 'reconnected' });
    await pinpad.display('de volta');
    expect(sim.engine.state.display[0]).toBe('de volta');
  });

  it('sees a write error as an unplug: the command fails as disconnected and the driver reconnects', async () => {
    const sim = await startVirtualPinpad({}, cleanup);
    let failWrites = false;
    /** The real TCP transport, with writes that fail on demand (a cable pulled between two writes). */
    class FlakyTcp extends TcpTransport {
      override write(bytes: Uint8Array): Promise<void> {
        return failWrites
          ? Promise.reject(new TransportError('TRANSPORT_DISCONNECTED', 'write failed: EIO'))
          : super.write(bytes);
      }
    }
    const pinpad = new Pinpad({
      transport: () => new FlakyTcp({ host: '127.0.0.1', port: sim.port }),
      timings: FAST,
      probeIntervalMs: 0,
      reconnect: { initialMs: 20, maxMs: 40 },
    });
    cleanup.push(() => pinpad.close());
    const events: PinpadLinkEvent[] = [];
    pinpad.on('link', (e) => events.push(e));
    await pinpad.connect();
    failWrites = true;
    await expect(pinpad.display('falha')).rejects.toSatisfy((e) => isPinpadError(e, 'PINPAD_DISCONNECTED'));
    expect(events[1]).toEqual({ state: 'disconnected', reason: 'write-error' });
    failWrites = false;
    const end = Date.now() + 3000;
    while (pinpad.status !== 'connected' && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    await pinpad.display('ok');
    expect(sim.engine.state.display[0]).toBe('ok');
  });

  it('refuses a classic command over 1024 bytes of packet data (§2.2.1)', async () => {
    const { pinpad } = await setup();
    const big = { id: 'DSP', blocking: false, encode: () => new Uint8Array(1025).fill(0x41), decode: () => undefined };
    await expect(pinpad.run(big, undefined)).rejects.toMatchObject({
      code: 'PINPAD_INVALID_ARGUMENT',
      context: { length: 1025 },
    });
  });
});
