import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import {
  Pinpad,
  card,
  isPinpadError,
  terminalKeyFromPem,
  type PinpadLinkEvent,
  type PinpadNotification,
} from '../../../drivers/pinpad/index.js';
import { TcpTransport } from '../../../drivers/transport/tcp.js';
import { type VirtualPinpadOptions } from '../../../src/sim/pinpad/index.js';
import { cardSim, type CardChoice } from '../../../src/sim/pinpad/card/index.js';
import { PinpadCardPort } from '../../../src/adapters/pinpad-card.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { sleep, until } from './scripted-peer.js';
import { connectSecurePinpad, startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

/**
 * The driver's issue-18 bullets against the strict virtual pinpad (its own §6.2 reader, real faults
 * of a serial line) over TCP loopback. Times are shortened where the behaviour is under test.
 */
const TIMINGS = { ackMs: 600, responseMs: 1200, eotMs: 500, interByteMs: 400, silenceMs: 100 };
const ACQ = '03';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(probeIntervalMs = 0, simOpts: VirtualPinpadOptions = {}) {
  const sim = await startVirtualPinpad({ tcpPort: 0, ...simOpts }, cleanup);
  const pinpad = new Pinpad({
    transport: () => new TcpTransport({ host: '127.0.0.1', port: sim.port }),
    timings: TIMINGS,
    probeIntervalMs,
    reconnect: { initialMs: 50, maxMs: 200 },
  });
  cleanup.push(() => pinpad.close());
  const events: PinpadLinkEvent[] = [];
  pinpad.on('link', (e) => events.push(e));
  await pinpad.connect();
  const choose = (c: CardChoice): void => {
    const r = cardSim(sim.engine.state).deck.choose(c);
    if (!r.ok) throw new Error(r.error);
  };
  return { sim, pinpad, events, choose };
}

/** The card port on `pinpad` (acquirer 03, the sim's key slots), with the deadlines under test. */
const cardPort = (pinpad: Pinpad, o: { finishTimeoutMs?: number; timeoutS: number }): PinpadCardPort =>
  new PinpadCardPort({
    pinpad,
    acquirerIndex: 3,
    pinKeySlot: 1,
    dataKeySlot: 2,
    resolveProduct: () => ({ productId: 80 }),
    ...o,
  });

function within<T>(p: Promise<T>, ms = 8000): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`still pending after ${ms} ms`)))]);
}

const today = (): { date: string; time: string } => {
  const d = new Date();
  const p = (n: number): string => String(n).padStart(2, '0');
  return {
    date: `${p(d.getFullYear() % 100)}${p(d.getMonth() + 1)}${p(d.getDate())}`,
    time: `${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`,
  };
};

describe("driver against the strict virtual pinpad: a serial line's faults", () => {
  it('a truncated answer to a blocking command (no ETB) is NAKed after the inter-byte time and taken whole', async () => {
    const { sim, pinpad } = await setup();
    sim.inject({ kind: 'truncated-answer' });
    sim.engine.type('4321');
    await expect(within(pinpad.getData({ message: 7, minDigits: 4, maxDigits: 4, timeoutS: 30 }))).resolves.toBe(
      '4321',
    );
  });

  it('a lost answer: PINPAD_TIMEOUT, then CAN to resynchronise, and the next command is shown', async () => {
    const { sim, pinpad } = await setup();
    const cans = sim.engine.state.cans;
    sim.inject({ kind: 'lost-answer' });
    const err = await within(pinpad.display(['LOST', ''])).catch((e: unknown) => e);
    expect(isPinpadError(err, 'PINPAD_TIMEOUT')).toBe(true);
    await until(() => sim.engine.state.cans > cans);
    await within(pinpad.display(['NEXT', '']));
    expect(sim.engine.state.display).toEqual(['NEXT', '']);
  });

  it('a late answer (past the non-blocking wait): timeout, CAN, and the late answer is not taken for the next command', async () => {
    const { sim, pinpad } = await setup();
    sim.inject({ kind: 'delay', ms: 2000 });
    const err = await within(pinpad.display(['LATE', ''])).catch((e: unknown) => e);
    expect(isPinpadError(err, 'PINPAD_TIMEOUT')).toBe(true);
    await within(pinpad.display(['ON TIME', '']));
    expect(sim.engine.state.display).toEqual(['ON TIME', '']);
  });

  it('a lost ACK: the answer that follows is taken (the pinpad answers only a command it took)', async () => {
    const { sim, pinpad } = await setup();
    sim.inject({ kind: 'lost-ack' });
    await within(pinpad.display(['NO ACK', '']));
    expect(sim.engine.state.display).toEqual(['NO ACK', '']);
    expect(sim.engine.state.received.filter((id) => id === 'DSP')).toHaveLength(1);
  });

  it('noise with stray SYN, ACK, NAK and EOT before answers: every command still ends with its own answer', async () => {
    const { sim, pinpad } = await setup();
    sim.inject({ kind: 'garbage', bytes: 24, control: true, count: 5 });
    for (let i = 0; i < 5; i++) {
      await within(pinpad.display([`NOISE ${i}`, '']));
      expect(sim.engine.state.display[0]).toBe(`NOISE ${i}`);
    }
  });
});

describe('driver against the strict virtual pinpad: the card transaction', () => {
  it('no idle probe between GCX and GOX: firmware that drops the EMV context on CAN still runs GOX', async () => {
    const { sim, pinpad, choose } = await setup(50);
    await until(() => sim.engine.state.cans >= 2); // the idle link is probed
    choose({ lastDigit: 0, via: 'chip', pin: 'right', declineAfterApproval: false });
    sim.inject({ kind: 'can-drops-emv' });
    const read = await within(pinpad.run(card.GCX, { amount: 1000, ...today(), acquirer: ACQ, contactless: false }));
    expect(read.cardType).toBe('chip');
    const cans = sim.engine.state.cans;
    await sleep(500); // ten probe intervals: the host is asked in this time
    expect(sim.engine.state.cans).toBe(cans);
    const gox = await within(
      pinpad.run(card.GOX, { acquirer: read.aidTables[0]!.acquirer, amount: 1000, pinKeyIndex: 1 }),
    );
    expect(gox.decision).toBe('online');
  });

  it('an unplug inside the card transaction is seen through the transport, without a probe', async () => {
    const { sim, pinpad, events, choose } = await setup(50);
    choose({ lastDigit: 0, via: 'chip', pin: 'right', declineAfterApproval: false });
    await within(pinpad.run(card.GCX, { amount: 1000, ...today(), acquirer: ACQ, contactless: false }));
    const cans = sim.engine.state.cans;
    await sleep(300); // six probe intervals with the card in
    await sim.unplug();
    await until(() => events.some((e) => e.state === 'disconnected'));
    expect(sim.engine.state.cans).toBe(cans);
  });
});

describe('driver against the strict virtual pinpad: FCX has a deadline', () => {
  for (const via of ['contactless', 'chip'] as const) {
    it(`a ${via} card whose FCX answer is lost: aborted at the deadline (CAN), ${via === 'contactless' ? "the host's approval stands (§3.7.4 note 2)" : 'the card session failed'}, the pinpad runs the next command`, async () => {
      const { sim, pinpad, choose } = await setup();
      const c = TEST_CARDS.find((x) => x.name.startsWith('mastercard credit, chip'))!;
      choose(via === 'chip' ? { pan: c.pan, via, pin: 'right' } : { pan: c.pan, via });
      const port = cardPort(pinpad, { finishTimeoutMs: 600, timeoutS: 30 });
      sim.engine.type('1234');
      const read = await within(
        port.readCard(
          { merchantOrderId: 'FCX-SIM', amount: 1500, method: 'credit', installments: 1, interest: 'ByMerchant' },
          new AbortController().signal,
        ),
      );
      expect(read.summary.inputMode).toBe(via === 'chip' ? 'Emv' : 'ContactlessEmv');
      const cans = sim.engine.state.cans;
      sim.inject({ kind: 'lost-answer' });
      const r = await within(port.finishChip('approved', { emvResponse: '8A023030' }));
      expect(r.card).toBe(via === 'chip' ? 'failed' : 'approved');
      expect(sim.engine.state.cans).toBeGreaterThan(cans);
      await within(pinpad.display(['NEXT', '']));
      expect(sim.engine.state.display).toEqual(['NEXT', '']);
    });
  }
});

describe('driver against the strict virtual pinpad: GCX has a deadline', () => {
  // The chaos run that found it (29 Nov 2026): a card sale whose GCX answer was lost on the wire held the
  // terminal busy for over half an hour, until the daemon was restarted.
  it('a card read whose GCX answer is lost: aborted (CAN) at its SPE_TIMEOUT and a margin, the pinpad runs the next command', async () => {
    const { sim, pinpad, choose } = await setup();
    const c = TEST_CARDS.find((x) => x.name.startsWith('mastercard credit, chip'))!;
    choose({ pan: c.pan, via: 'chip', pin: 'right' });
    const port = cardPort(pinpad, { timeoutS: 1 });
    const cans = sim.engine.state.cans;
    sim.inject({ kind: 'lost-answer' });
    const started = Date.now();
    const read = port.readCard(
      { merchantOrderId: 'GCX-LOST', amount: 1500, method: 'credit', installments: 1, interest: 'ByMerchant' },
      new AbortController().signal,
    );
    await expect(within(read, 12_000)).rejects.not.toThrow(/still pending/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(sim.engine.state.cans).toBeGreaterThan(cans);
    await within(pinpad.display(['NEXT', '']));
    expect(sim.engine.state.display).toEqual(['NEXT', '']);
  }, 20_000);
});

describe('driver against the strict virtual pinpad: the secure session', () => {
  it('a notification in clear inside the secure session is passed on and the blocking command goes on', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
    const terminalKey = terminalKeyFromPem(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    const sim = await startVirtualPinpad({ tcpPort: 0 }, cleanup);
    const pinpad = await connectSecurePinpad(
      { port: sim.port },
      terminalKey,
      { timings: TIMINGS, probeIntervalMs: 0, reconnect: { enabled: false } },
      cleanup,
    );
    expect(pinpad.secure).toMatchObject({ recognition: 'abecs', secure: true });
    const notes: PinpadNotification[] = [];
    pinpad.on('notification', (n) => notes.push(n));
    sim.inject({ kind: 'clear-ntm' });
    sim.engine.type('1234');
    await expect(within(pinpad.getData({ message: 7, minDigits: 4, maxDigits: 4, timeoutS: 30 }))).resolves.toBe(
      '1234',
    );
    expect(notes.length).toBeGreaterThan(0);
    expect(pinpad.secure.secure).toBe(true);
  });
});
