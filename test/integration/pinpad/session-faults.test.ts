import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  INFO_GIX_IDS,
  Pinpad,
  SecurePinpad,
  card,
  isPinpadError,
  terminalKeyFromPem,
  type PacketLayer,
  type PinpadLinkEvent,
  type TerminalKey,
} from '../../../drivers/pinpad/index.js';
import { TcpTransport } from '../../../drivers/transport/tcp.js';
import { CAN, ScriptedPeer, sleep, until } from './scripted-peer.js';

/**
 * Sessions against a raw scripted pinpad over TCP loopback: the card transaction (no probe inside
 * it), sealing at send time, the secure session lost and re-established, the secure OPN refused,
 * GIX at connect. The peer's bytes are written from ABECS 2.20; its secure channel is its own (§5.2).
 */
const TIMINGS = { ackMs: 600, responseMs: 1500, eotMs: 500, interByteMs: 400, silenceMs: 100 };

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

let terminalKey: TerminalKey;
beforeAll(() => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  terminalKey = terminalKeyFromPem(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
});

async function peerUp(): Promise<ScriptedPeer> {
  const peer = new ScriptedPeer();
  await peer.start();
  cleanup.push(() => peer.stop());
  return peer;
}

async function clearPinpad(peer: ScriptedPeer, probeIntervalMs = 0) {
  const pinpad = new Pinpad({
    transport: () => new TcpTransport({ host: '127.0.0.1', port: peer.port }),
    timings: TIMINGS,
    probeIntervalMs,
    reconnect: { initialMs: 50, maxMs: 200 },
  });
  cleanup.push(() => pinpad.close());
  const events: PinpadLinkEvent[] = [];
  pinpad.on('link', (e) => events.push(e));
  await pinpad.connect();
  return { pinpad, events };
}

function securePinpad(peer: ScriptedPeer) {
  const pinpad = new SecurePinpad({
    transport: () => new TcpTransport({ host: '127.0.0.1', port: peer.port }),
    terminalKey,
    timings: TIMINGS,
    probeIntervalMs: 0,
    reconnect: { enabled: false },
  });
  cleanup.push(() => pinpad.close());
  return pinpad;
}

/** The GCX answer of a real PPC930 (transcao_completa_com_scope.txt lines 242-249, PAN and track masked "M" by the capture). */
const GCX_ANSWER = Buffer.from(
  '4743583030303130348051000630323031303180' +
    '5B00074352454449544F80600002303080' +
    '4F0002303680420018' +
    '4D'.repeat(24) +
    '80520010' +
    '4D'.repeat(16) +
    '805300023030805C0003303736805D0006333130373331',
  'hex',
);
const GCX_REQ: card.GcxRequest = {
  amount: 1,
  date: '251111',
  time: '173647',
  acquirer: '02',
  contactless: true,
  timeoutS: 30,
  message: 'APROXIME',
};

describe('no idle probe inside an open card transaction (GCX … RMC)', () => {
  it('sends no CAN between GCX and RMC however long the host takes; an unplug there is seen through the transport', async () => {
    const peer = await peerUp();
    peer.script = (cmd, _raw, p) => {
      if (cmd === 'OPN') p.answer('OPN000');
      if (cmd === 'GCX') p.answer(GCX_ANSWER);
      if (cmd === 'RMC') p.answer('RMC000');
    };
    const { pinpad, events } = await clearPinpad(peer, 50);
    await until(() => peer.controls(CAN) >= 3); // idle: probed
    const read = await pinpad.run(card.GCX, GCX_REQ);
    expect(read.cardType).toBe('contactless-chip');
    const from = peer.seen.length;
    await sleep(600); // twelve probe intervals: the host is authorising
    expect(peer.controls(CAN, from)).toBe(0);
    expect(pinpad.inCardSession).toBe(true);
    await pinpad.run(card.RMC, ['APROVADA', '']);
    expect(pinpad.inCardSession).toBe(false);
    await until(() => peer.controls(CAN, from) >= 1); // probes again once the card transaction is over
    await pinpad.run(card.GCX, GCX_REQ);
    const inside = peer.seen.length;
    peer.unplug();
    await until(() => events.some((e) => e.state === 'disconnected'));
    expect(peer.controls(CAN, inside)).toBe(0);
  });
});

describe('sealed when sent, not when queued', () => {
  it('a command queued before the packet layer changed leaves under the layer in force when it is sent', async () => {
    const peer = await peerUp();
    let held: (() => void) | undefined;
    peer.script = (cmd, raw, p) => {
      if (cmd === 'OPN') p.answer('OPN000');
      // the test's layer puts the session's mark before the clear packet: "1DSP…" or "2DSP…"
      if (cmd === 'OPN') return;
      if (raw[0] === 0x31 && !held) held = () => p.answer('DSP000');
      else p.answer('DSP000');
    };
    const { pinpad } = await clearPinpad(peer);
    let mark = '1';
    const layer: PacketLayer = { seal: (d) => Buffer.concat([Buffer.from(mark), d]), open: (d) => d };
    pinpad.setLayer(layer);
    const first = pinpad.display(['FIRST', '']);
    const second = pinpad.display(['SECOND', '']); // queued behind the first
    await until(() => held !== undefined);
    mark = '2'; // a new session while the second waits
    held!();
    await first;
    await second;
    const marks = peer.seen.flatMap((s) =>
      s.kind === 'packet' && s.data.subarray(1, 4).toString() === 'DSP' ? [s.data.subarray(0, 1).toString()] : [],
    );
    expect(marks).toEqual(['1', '2']);
  });

  for (const refusal of ['ERR003', 'ERR009']) {
    it(`a command refused with ${refusal} is sent once more after the new secure OPN, and succeeds`, async () => {
      const peer = await peerUp();
      let dsp = 0;
      peer.script = (cmd, raw, p) => {
        if (cmd === 'OPN') peer.secureOpn(raw);
        if (cmd === 'DSP' && ++dsp === 1) {
          peer.ksec = undefined; // the pinpad dropped the session (a reset, a packet it could not open)
          p.answer(refusal, { clear: true });
        } else if (cmd === 'DSP') p.answer('DSP000');
      };
      const pinpad = securePinpad(peer);
      await pinpad.connect();
      expect(pinpad.secure).toMatchObject({ recognition: 'abecs', secure: true, sessions: 1 });
      await expect(pinpad.display(['AGAIN', ''])).resolves.toBeUndefined();
      expect(dsp).toBe(2);
      expect(pinpad.secure).toMatchObject({ secure: true, sessions: 2 });
      const sealed = peer.seen.flatMap((s) =>
        s.kind === 'packet' ? [`${s.data.subarray(0, 3).toString()}${s.sealed ? '*' : ''}`] : [],
      );
      expect(sealed).toEqual(['OPN', 'DSP*', 'OPN', 'DSP*']);
    });
  }
});

describe('a refused secure OPN is not an obsolete pinpad (§3.2.2)', () => {
  it('an error status to the secure OPN is tried again: a current pinpad is recognised, never through a classic OPN', async () => {
    const peer = await peerUp();
    let opn = 0;
    peer.script = (cmd, raw, p) => {
      if (cmd !== 'OPN') return;
      if (raw.length <= 3) return p.answer('OPN000'); // the classic OPN: any Abecs pinpad answers it too
      if (++opn === 1)
        p.answer('OPN040'); // ST_INTERR: busy, not obsolete
      else peer.secureOpn(raw);
    };
    const pinpad = securePinpad(peer);
    await pinpad.connect();
    expect(pinpad.secure.recognition).toBe('abecs');
    expect(pinpad.cardSales).toBe(true);
    expect(peer.seen.filter((s) => s.kind === 'packet' && s.data.length === 3)).toEqual([]);
  });

  it('a secure OPN refused every time is reported (connect fails with the status), not served as classic', async () => {
    const peer = await peerUp();
    peer.script = (cmd, raw, p) => {
      if (cmd === 'OPN') p.answer(raw.length <= 3 ? 'OPN000' : 'OPN011');
    };
    const pinpad = securePinpad(peer);
    const err = await pinpad.connect().catch((e: unknown) => e);
    expect(isPinpadError(err, 'PINPAD_STATUS')).toBe(true);
    expect(pinpad.secure.recognition).not.toBe('classic');
    expect(peer.commands()).toEqual(['OPN', 'OPN', 'OPN']);
  });

  it('a bare OPN000 to the secure OPN is an obsolete pinpad: classic, no card sales', async () => {
    const peer = await peerUp();
    peer.script = (cmd, _raw, p) => {
      if (cmd === 'OPN') p.answer('OPN000');
    };
    const pinpad = securePinpad(peer);
    await pinpad.connect();
    expect(pinpad.secure.recognition).toBe('classic');
    expect(pinpad.cardSales).toBe(false);
  });
});

describe('GIX at connect: only the ids the daemon uses, once', () => {
  it('info() lists only what it reports and asks once per connection', async () => {
    const peer = await peerUp();
    const lists: number[][] = [];
    peer.script = (cmd, raw, p) => {
      if (cmd === 'OPN') p.answer('OPN000');
      if (cmd !== 'GIX') return;
      // GIX LLL 0001h LL ids…: SPE_IDLIST (§3.2.4)
      const n = raw.readUInt16BE(8);
      const ids: number[] = [];
      for (let i = 0; i < n; i += 2) ids.push(raw.readUInt16BE(10 + i));
      lists.push(ids);
      const params = (pairs: [number, string][]): Buffer =>
        Buffer.concat(
          pairs.map(([id, v]) => Buffer.concat([Buffer.of(id >> 8, id & 0xff, 0, v.length), Buffer.from(v, 'latin1')])),
        );
      const block = params([
        [0x8001, '7200032211005539'],
        [0x8003, 'PPC-930;192MB'],
        [0x8004, 'GERTEC'],
        [0x8005, '1200000000'],
        [0x8007, '2.12'],
        [0x8035, '0'.repeat(100)],
      ]);
      p.answer(Buffer.concat([Buffer.from(`GIX000${String(block.length).padStart(3, '0')}`), block]));
    };
    const { pinpad } = await clearPinpad(peer);
    const info = await pinpad.info();
    expect(info).toMatchObject({ serialNumber: '7200032211005539', manufacturer: 'GERTEC', specVersion: '2.12' });
    await pinpad.info();
    expect(lists).toEqual([[...INFO_GIX_IDS]]);
    expect(lists[0]).not.toContain(0x8002); // PP_PARTNBR, and the rest of the "(†)" set: not asked
    await pinpad.info({ refresh: true });
    expect(lists).toHaveLength(2);
  });
});
