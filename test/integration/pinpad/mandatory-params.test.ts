import { afterEach, describe, expect, it } from 'vitest';
import { Pinpad, card, encodeCommand, isPinpadError, type CommandSpec } from '../../../drivers/pinpad/index.js';
import { TcpTransport } from '../../../drivers/transport/tcp.js';
import { abecsIdByName } from '../../../tables/pinpad/abecs-ids.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

/**
 * A command missing a parameter its section marks M (tables/pinpad/command-params.ts) is refused by the
 * driver with an error naming the command and the parameter, and no frame of it reaches the pinpad:
 * the virtual pinpad (its own parser) records every command it received.
 */
const FAST = { ackMs: 300, responseMs: 2000, eotMs: 300, silenceMs: 60 };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup() {
  const sim = await startVirtualPinpad({}, cleanup);
  let writes = 0;
  class CountingTcp extends TcpTransport {
    override write(data: Uint8Array): Promise<void> {
      writes++;
      return super.write(data);
    }
  }
  const pinpad = new Pinpad({
    transport: () => new CountingTcp({ host: '127.0.0.1', port: sim.port }),
    timings: FAST,
    probeIntervalMs: 0,
  });
  cleanup.push(() => pinpad.close());
  await pinpad.connect();
  return { sim, pinpad, writes: () => writes };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('the driver checks mandatory parameters against the table before sending', () => {
  it('MLR with an empty piece (no SPE_DATAIN, M in §3.4.2) is refused by name; nothing goes on the wire', async () => {
    const { sim, pinpad, writes } = await setup();
    const before = writes();
    const e = await rejection(pinpad.run(card.MLR, new Uint8Array(0)));
    expect(isPinpadError(e, 'PINPAD_INVALID_ARGUMENT')).toBe(true);
    expect((e as Error).message).toMatch(/^MLR: mandatory parameter SPE_DATAIN missing \(§3\.4\.2\)/);
    expect(writes()).toBe(before);
    expect(sim.engine.state.received).toEqual(['OPN']);
  });

  it('a GCX without SPE_TRNTIME (M in §3.7.1) is refused by name and never sent; the link goes on', async () => {
    const { sim, pinpad, writes } = await setup();
    const date = abecsIdByName('SPE_TRNDATE')!.id;
    const bare: CommandSpec<void, void> = {
      id: 'GCX',
      blocking: true,
      encode: () =>
        encodeCommand('GCX', [Uint8Array.from([date >> 8, date & 0xff, 0, 6, ...Buffer.from('261126', 'latin1')])]),
      decode: () => undefined,
    };
    const before = writes();
    const e = await rejection(pinpad.run(bare, undefined));
    expect(isPinpadError(e, 'PINPAD_INVALID_ARGUMENT')).toBe(true);
    expect(e).toMatchObject({ context: { command: 'GCX', parameter: 'SPE_TRNTIME', section: '3.7.1' } });
    expect(writes()).toBe(before);
    expect(sim.engine.state.received).toEqual(['OPN']);
    await pinpad.run(card.DSI, 'QRCODE01').catch(() => undefined); // the next command still goes
    expect(sim.engine.state.received).toEqual(['OPN', 'DSI']);
  });
});
