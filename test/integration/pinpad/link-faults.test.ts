import { afterEach, describe, expect, it } from 'vitest';
import { Pinpad, card, isPinpadError, type PinpadLinkEvent } from '../../../drivers/pinpad/index.js';
import { TcpTransport } from '../../../drivers/transport/tcp.js';
import { ACK, CAN, NAK, SYN, ScriptedPeer, packet, sleep, until } from './scripted-peer.js';

/**
 * The link layer against a raw scripted pinpad over TCP loopback: the faults a serial line has
 * (ABECS 2.20 §2.2.2, §2.2.3), each byte the peer sends written in the test from the specification.
 * Times are shortened where the behaviour, not the constant, is under test; nothing asserts a duration.
 */
const TIMINGS = { ackMs: 600, responseMs: 1500, eotMs: 500, interByteMs: 400, silenceMs: 100 };

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(timings: Partial<typeof TIMINGS> = {}) {
  const peer = new ScriptedPeer();
  await peer.start();
  cleanup.push(() => peer.stop());
  peer.script = (cmd, _raw, p) => {
    if (cmd === 'OPN') p.answer('OPN000');
    if (cmd === 'DSP') p.answer('DSP000');
  };
  const pinpad = new Pinpad({
    transport: () => new TcpTransport({ host: '127.0.0.1', port: peer.port }),
    timings: { ...TIMINGS, ...timings },
    probeIntervalMs: 0,
    reconnect: { initialMs: 50, maxMs: 200 },
  });
  cleanup.push(() => pinpad.close());
  const events: PinpadLinkEvent[] = [];
  pinpad.on('link', (e) => events.push(e));
  await pinpad.connect();
  return { peer, pinpad, events };
}

/** Settles `p` or fails after `ms` (the old driver hung on these). */
function within<T>(p: Promise<T>, ms = 6000): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`still pending after ${ms} ms`)))]);
}

/** GCD's answer (§3.3.8): PP_VALUE (804Dh) = `value`, as one parameter block. */
function gcdAnswer(value: string): string {
  const v = Buffer.from(value, 'latin1');
  const block = Buffer.concat([Buffer.of(0x80, 0x4d, 0, v.length), v]);
  return `GCD000${String(block.length).padStart(3, '0')}${block.toString('latin1')}`;
}

const GCD_REQ = { message: 7, minDigits: 3, maxDigits: 3, timeoutS: 30 } as const;

describe('inter-byte timeout (§2.2.3: 2 s per byte inside a packet)', () => {
  it('a blocking command whose answer stops before ETB is NAKed after the inter-byte time and takes the retransmission', async () => {
    const { peer, pinpad } = await setup();
    peer.script = (cmd, _raw, p) => {
      if (cmd !== 'GCD') return;
      const full = packet(gcdAnswer('123'));
      peer.lastAnswer = full; // what the NAK gets
      p.write(full.subarray(0, 9)); // SYN GCD000 0 0 … and nothing more
    };
    await expect(within(pinpad.getData(GCD_REQ))).resolves.toBe('123');
    expect(peer.controls(NAK)).toBe(1);
  });

  it("the customer's cancel after an answer lost its end: CAN gets its EOT, the command ends cancelled, the link stays up", async () => {
    const { peer, pinpad, events } = await setup();
    peer.script = (cmd, _raw, p) => {
      if (cmd === 'GCD') p.write(packet(gcdAnswer('123')).subarray(0, 9));
      if (cmd === 'DSP') p.answer('DSP000');
    };
    const from = peer.seen.length;
    const ac = new AbortController();
    const read = pinpad.getData(GCD_REQ, { signal: ac.signal });
    read.catch(() => undefined);
    await until(() => peer.controls(NAK) === 1); // the stalled half packet was refused
    peer.lastAnswer = undefined; // this pinpad has nothing to send again
    ac.abort();
    const err = await within(read).catch((e: unknown) => e);
    expect(isPinpadError(err, 'PINPAD_CANCELLED')).toBe(true);
    expect(peer.controls(CAN, from)).toBe(1);
    expect(events.filter((e) => e.state === 'disconnected')).toEqual([]);
    await expect(within(pinpad.display(['STILL', 'HERE']))).resolves.toBeUndefined();
  });

  it('a cancel sent while an answer is half-way (before the inter-byte time) still reads the EOT as EOT', async () => {
    const { peer, pinpad, events } = await setup({ interByteMs: 5000 });
    let halfSent = false;
    peer.script = (cmd, _raw, p) => {
      if (cmd === 'GCD') {
        p.write(packet(gcdAnswer('123')).subarray(0, 9));
        halfSent = true;
      }
    };
    const ac = new AbortController();
    const read = pinpad.getData(GCD_REQ, { signal: ac.signal });
    read.catch(() => undefined);
    await until(() => halfSent);
    await sleep(100);
    ac.abort();
    const err = await within(read, 4000).catch((e: unknown) => e);
    expect(isPinpadError(err, 'PINPAD_CANCELLED')).toBe(true);
    expect(events.filter((e) => e.state === 'disconnected')).toEqual([]);
  });

  it('a stray SYN on an idle line does not swallow the ACK of the next command', async () => {
    const { peer, pinpad } = await setup();
    peer.write(Uint8Array.of(SYN));
    await sleep(50);
    await expect(within(pinpad.display(['AFTER', 'NOISE']))).resolves.toBeUndefined();
  });
});

describe('timing of a real pinpad (§2.2.3 flowchart)', () => {
  it("the non-blocking wait runs to the answer's first byte: an answer that starts in time and ends past it is taken", async () => {
    const { peer, pinpad } = await setup({ responseMs: 1500, interByteMs: 1500 });
    peer.script = (cmd, _raw, p) => {
      if (cmd !== 'DSP') return;
      const full = packet('DSP000');
      void (async () => {
        await sleep(900);
        // the first byte within the 1.5 s, the rest dripping in well past it, each byte well within the inter-byte time
        for (const b of full) {
          p.write(Uint8Array.of(b));
          await sleep(150);
        }
      })();
    };
    await expect(within(pinpad.display(['SLOW', 'ANSWER']))).resolves.toBeUndefined();
  });

  it('after a non-blocking command timed out the driver sends CAN to resynchronise, and the next command runs', async () => {
    const { peer, pinpad } = await setup();
    let first = true;
    peer.script = (cmd, _raw, p) => {
      if (cmd !== 'DSP') return;
      if (first)
        first = false; // this answer is lost
      else p.answer('DSP000');
    };
    const from = peer.seen.length;
    const err = await within(pinpad.display(['LOST', ''])).catch((e: unknown) => e);
    expect(isPinpadError(err, 'PINPAD_TIMEOUT')).toBe(true);
    await until(() => peer.controls(CAN, from) === 1);
    await expect(within(pinpad.display(['NEXT', '']))).resolves.toBeUndefined();
  });
});

describe('no phantom control bytes (§2.2.1, §2.2.3)', () => {
  it("a rejected packet's remaining bytes (06h among them) are discarded until silence, never read as ACK", async () => {
    const { peer, pinpad } = await setup();
    let sends = 0;
    peer.ack = (cmd) => (cmd === 'DSP' && ++sends === 1 ? 'none' : 'ack');
    peer.script = (cmd, _raw, p) => {
      if (cmd === 'DSP' && sends > 1) p.answer('DSP000');
    };
    const shown = pinpad.display(['NOISY', 'LINE']);
    await until(() => sends === 1);
    // noise on the line: a packet with a bad escape (DC3 01h) whose rest holds ACK bytes
    peer.write(Uint8Array.of(SYN, 0x41, 0x13, 0x01, ACK, ACK, 0x42));
    await sleep(300); // silence, then the pinpad's NAK for the command it could not read
    peer.write(Uint8Array.of(NAK));
    await expect(within(shown)).resolves.toBeUndefined();
    expect(sends).toBe(2);
  });
});

describe('2.12 pinpads: DEX options refused', () => {
  it('DEX with options on a pinpad that knows none (2.12: ST_INVPARM when DEX_MSGLEN disagrees) is shown again without them', async () => {
    const { peer, pinpad } = await setup();
    const shown: string[] = [];
    peer.script = (cmd, raw, p) => {
      if (cmd !== 'DEX') return;
      // 2.12 §3.3.4: DEX CMD_LEN1(3) DEX_MSGLEN(3) DEX_MSG; anything else is ST_INVPARM
      const len = Number(raw.subarray(3, 6).toString());
      const msgLen = Number(raw.subarray(6, 9).toString());
      if (len !== 3 + msgLen) return p.answer('DEX011');
      shown.push(raw.subarray(9).toString('latin1'));
      p.answer('DEX000');
    };
    await expect(
      within(pinpad.displayEx('VALOR: 1,00\nAPROXIME', { horizontal: 'center', kind: 'info' })),
    ).resolves.toBeUndefined();
    expect(shown).toEqual(['VALOR: 1,00\rAPROXIME']);
    expect(peer.commands()).toEqual(['OPN', 'DEX', 'DEX']);
  });
});

describe('a cancel right after a rejected packet (§2.2.2.3, §2.2.3)', () => {
  it('the EOT that answers our CAN within the silence of a rejected packet is read as EOT: one CAN, cancelled, the link up', async () => {
    const { peer, pinpad, events } = await setup({ silenceMs: 1000, eotMs: 400 });
    let asked = false;
    peer.script = (cmd) => {
      if (cmd === 'GCD') asked = true;
    };
    const ac = new AbortController();
    const read = pinpad.getData(GCD_REQ, { signal: ac.signal });
    read.catch(() => undefined);
    await until(() => asked);
    const from = peer.seen.length;
    // an answer rejected half-way (DC3 01h is no escape): the driver discards what follows until silence
    peer.write(Uint8Array.of(SYN, 0x47, 0x13, 0x01, 0x41));
    await sleep(50);
    ac.abort(); // CAN; the peer's EOT follows at once, well within the 1 s of silence
    const err = await within(read, 4000).catch((e: unknown) => e);
    expect(isPinpadError(err, 'PINPAD_CANCELLED')).toBe(true);
    expect(peer.controls(CAN, from)).toBe(1);
    expect(events.filter((e) => e.state === 'disconnected')).toEqual([]);
  });
});

describe('a response time per command (§2.2.2: 10 s; longer where a real pinpad writes flash or reads every key map)', () => {
  it('TLE and a GIX asking the key maps are waited three response times; a DSP as late times out', async () => {
    const { peer, pinpad } = await setup({ responseMs: 1000 });
    peer.script = (cmd, _raw, p) => {
      const late = (answer: string): void => void sleep(1500).then(() => p.answer(answer));
      if (cmd === 'TLE') late('TLE000');
      if (cmd === 'GIX') late('GIX000');
      if (cmd === 'DSP') late('DSP000');
    };
    await expect(within(pinpad.run(card.TLE, undefined))).resolves.toBeUndefined();
    await expect(within(pinpad.gix([0x8001, 0x8035]))).resolves.toMatchObject({ entries: [] });
    const err = await within(pinpad.display(['LATE', ''])).catch((e: unknown) => e);
    expect(isPinpadError(err, 'PINPAD_TIMEOUT')).toBe(true);
    expect((err as Error).message).toContain('1000 ms');
  });
});
