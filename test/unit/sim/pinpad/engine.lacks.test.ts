import { describe, expect, it } from 'vitest';
import {
  FrameDecoder,
  encodeFrame,
  sealPacket,
  openPacket,
  decodeResponse,
  decodeParams,
  type LinkEvent,
} from '../../../../drivers/pinpad/index.js';
import { dukptDecryptData } from '../../../../src/crypto/index.js';
import { SimEngine } from '../../../../src/sim/pinpad/engine.js';
import { handlersFor } from '../../../../src/sim/pinpad/handlers/index.js';
import { profile, type VirtualPinpadProfile } from '../../../../src/sim/pinpad/profile.js';
import { cardSim, findCard } from '../../../../src/sim/pinpad/card/index.js';
import { secureLayerOf } from '../../../../src/sim/pinpad/secure/index.js';
import { SANDBOX_KEYS } from '../../../../tables/sandbox-keys.js';
import { onTheWire, PPC930_COMMANDS } from '../../../helpers/ppc930-commands.js';

/** An engine answering a terminal whose reader is the driver's decoder (independent of the sim's writer). */
function rig(p: Partial<VirtualPinpadProfile> = {}) {
  const events: LinkEvent[] = [];
  const decoder = new FrameDecoder();
  const engine = new SimEngine({
    profile: profile(p),
    handlers: handlersFor(false),
    output: (b) => events.push(...decoder.push(b)),
    typingMs: null,
  });
  async function send(packet: Uint8Array): Promise<Uint8Array> {
    const from = events.length;
    engine.receive(packet);
    // generous: this machine is loaded (never a bound on how long things take)
    for (const end = Date.now() + 15_000; Date.now() < end;) {
      const f = events
        .slice(from)
        .find((e) => e.type === 'frame' && Buffer.from(e.data.subarray(0, 3)).toString('latin1') !== 'NTM');
      if (f && f.type === 'frame') return f.data;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('no answer');
  }
  return { engine, send };
}
const par = (id: number, v: string | Uint8Array) => {
  const b = typeof v === 'string' ? Buffer.from(v, 'latin1') : Buffer.from(v);
  return Buffer.concat([Buffer.of(id >> 8, id & 0xff, b.length >> 8, b.length & 0xff), b]);
};
const cmd = (id: string, ...ps: Buffer[]) => {
  const b = Buffer.concat(ps);
  return Uint8Array.from(Buffer.concat([Buffer.from(id + String(b.length).padStart(3, '0')), b]));
};
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');
/** The data of an answer by PARID (the driver's parameter splitter, an independent reader). */
function data(answer: Uint8Array): Map<number, Uint8Array> {
  const r = decodeResponse(answer);
  return new Map(decodeParams(r.blocks, r.id).map((p) => [p.id, Uint8Array.from(p.value)]));
}
const GCX = cmd('GCX', par(0x15, '251125'), par(0x16, '120000'), par(0x13, '000000001010'));
const CHIP = findCard({ lastDigit: 0 })!;

describe('what the virtual pinpad lacked (issue 18)', () => {
  it('GTK in CBC mode: PAN and track 2 each under a KSN of its own (§6.3.4.2 "diferentes e independentes"), each decrypting under its own', async () => {
    const r = rig();
    cardSim(r.engine.state).deck.choose({ lastDigit: 0, via: 'chip' });
    expect(text((await r.send(encodeFrame(GCX))).subarray(0, 6))).toBe('GCX000');
    const iv = Uint8Array.from(Buffer.from('0102030405060708', 'hex'));
    const a = data(
      await r.send(encodeFrame(cmd('GTK', par(0x07, '1010'), par(0x03, '51'), par(0x09, '02'), par(0x1d, iv)))),
    );
    const panKsn = Buffer.from(a.get(0x804b)!).toString('hex');
    const t2Ksn = Buffer.from(a.get(0x8048)!).toString('hex');
    expect(panKsn).not.toBe(t2Ksn);
    const pan = dukptDecryptData({ bdk: SANDBOX_KEYS.bdk }, panKsn, a.get(0x804a)!, { iv });
    const t2 = dukptDecryptData({ bdk: SANDBOX_KEYS.bdk }, t2Ksn, a.get(0x8045)!, { iv });
    expect(pan.toString('hex').toUpperCase().replace(/F+$/, '')).toBe(CHIP.pan);
    expect(t2.toString('hex').toUpperCase().replace(/F+$/, '').replace('D', '=')).toBe(CHIP.track2);
  });

  it('GTK in ECB mode: one KSN for every field (§6.3.4.2 "um valor único de KSN")', async () => {
    const r = rig();
    cardSim(r.engine.state).deck.choose({ lastDigit: 0, via: 'chip' });
    await r.send(encodeFrame(GCX));
    const a = data(await r.send(encodeFrame(cmd('GTK', par(0x07, '1010'), par(0x03, '50'), par(0x09, '02')))));
    expect(Buffer.from(a.get(0x804b)!).equals(Buffer.from(a.get(0x8048)!))).toBe(true);
  });

  it('CLX (§3.2.7, §6.4.5): closes the secure session and answers in clear; leaves SPE_DSPMSG or a loaded image; a padded SPE_MFNAME is ST_INVPARM', async () => {
    const r = rig();
    const ksec = new Uint8Array(16).fill(7);
    r.engine.state.session.secure = { ksec };
    r.engine.state.opened = true;
    r.engine.layer = secureLayerOf(r.engine.state);
    const bad = await r.send(encodeFrame(sealPacket(ksec, cmd('CLX', par(0x1e, 'LOGO    ')))));
    expect(text(bad)).toBe('CLX011'); // CLX answers are clear (§6.3.2); refused, the session stays
    expect(r.engine.state.session.secure).toBeDefined();
    const ok = await r.send(encodeFrame(sealPacket(ksec, cmd('CLX', par(0x1b, 'ATE LOGO\rVOLTE SEMPRE')))));
    expect(text(ok)).toBe('CLX000');
    expect(r.engine.state.display).toEqual(['ATE LOGO', 'VOLTE SEMPRE']);
    expect(r.engine.state.session).toEqual({});
    cardSim(r.engine.state).media.files.set('LOGO0001', { type: 1, data: Buffer.alloc(4) });
    expect(text(await r.send(encodeFrame(cmd('CLX', par(0x1e, 'LOGO0001'), par(0x1b, 'X')))))).toBe('CLX000');
    expect(r.engine.state.display[0]).toBe('[image LOGO0001]');
  });

  it('GOX declines offline when the card says so: PP_GOXRES "1…", CID 00 (AAC), and no FCX after it', async () => {
    const r = rig();
    cardSim(r.engine.state).deck.choose({ lastDigit: 0, via: 'chip', declineOffline: true });
    await r.send(encodeFrame(GCX));
    const acq = cardSim(r.engine.state).held!.aidTables[0]!.acquirer;
    const a = data(
      await r.send(
        encodeFrame(
          cmd(
            'GOX',
            par(0x10, acq),
            par(0x02, '3'),
            par(0x09, '01'),
            par(0x13, '000000001010'),
            par(0x04, Buffer.from('9F27', 'hex')),
          ),
        ),
      ),
    );
    expect(text(a.get(0x8056)!)[0]).toBe('1');
    expect(Buffer.from(a.get(0x8054)!).toString('hex').toUpperCase()).toBe('9F270100');
    expect(text(await r.send(encodeFrame(cmd('FCX', par(0x19, '0000'), par(0x1c, '00')))))).toBe('FCX010');
  });

  it("2.12-style answers: GIX without a list gives the PPC930 log's ids in its order (8016h before 8012h, 8030h/8031h/8034h), DEX options refused", async () => {
    const r = rig({ answers: '2.12', specVersion: '2.12' });
    const a = await r.send(onTheWire(PPC930_COMMANDS.GIX_ALL));
    const ids = [...data(a).keys()].map((x) => x.toString(16));
    // transcao_completa_com_scope.txt lines 82-146, the PPC930's answer to "GIX000", decoded id by id
    expect(ids).toEqual([
      '8001',
      '8002',
      '8003',
      '8004',
      '8005',
      '8006',
      '8007',
      '8008',
      '8009',
      '800a',
      '8010',
      '8011',
      '8016',
      '8012',
      '8013',
      '8014',
      '8015',
      '8020',
      '8021',
      '8022',
      '8030',
      '8031',
      '8032',
      '8033',
      '8034',
      '8035',
      '8036',
    ]);
    expect(text(data(a).get(0x8007)!)).toBe('2.12');
    expect(text(await r.send(onTheWire(PPC930_COMMANDS.DEX)))).toBe('DEX000');
    expect(text(await r.send(encodeFrame(cmd('DEX', Buffer.from('003OLA000000')))))).toBe('DEX011');
    const now = rig();
    expect(text(await now.send(encodeFrame(cmd('DEX', Buffer.from('003OLA000000')))))).toBe('DEX000');
  });
});

describe('a sealed classic command over 1024 bytes (§2.2.1)', () => {
  it('is NAKed like a clear one; a sealed Abecs command of that size is taken', async () => {
    const r = rig();
    const ksec = new Uint8Array(16).fill(9);
    r.engine.state.session.secure = { ksec };
    r.engine.layer = secureLayerOf(r.engine.state);
    const out: number[] = [];
    const engine = new SimEngine({
      profile: profile(),
      handlers: handlersFor(false),
      output: (b) => out.push(...b),
      typingMs: null,
    });
    engine.state.session.secure = { ksec };
    engine.layer = secureLayerOf(engine.state);
    engine.receive(
      encodeFrame(sealPacket(ksec, cmd('TLR', Buffer.from(`01${'9'.repeat(997)}`), Buffer.alloc(40, 0x41)))),
    );
    expect(out).toEqual([0x15]);
    expect(engine.state.rejected).toEqual({ 'too-long': 1 });
    // GIX in two blocks (SPE_IDLIST, then two unknown parameters of padding): 1121 bytes of CLRDATA
    const b1 = Buffer.concat([par(0x01, Buffer.from('8001', 'hex')), par(0x7777, Buffer.alloc(900))]);
    const b2 = par(0x7778, Buffer.alloc(200));
    const clr = Buffer.concat([Buffer.from(`GIX${b1.length}`), b1, Buffer.from(`${b2.length}`), b2]);
    expect(clr.length).toBeGreaterThan(1024);
    const gix = await r.send(encodeFrame(sealPacket(ksec, clr)));
    expect(text(openPacket(ksec, gix)).slice(0, 6)).toBe('GIX000');
  });
});

describe('RMC and CEX take what §6.5.14 and §6.5.1 say they must', () => {
  it('RMC with a short message with a control character is shown as DSP would (no exception exists)', async () => {
    const r = rig();
    expect(text(await r.send(encodeFrame(Uint8Array.from(Buffer.from('RMC007RETIRE\x01', 'latin1')))))).toBe('RMC000');
    expect(r.engine.state.display).toEqual(['RETIRE', '']);
  });

  it('CEX with SPE_CEXOPT "X1" (stripe only, the rest "0") reads a swiped card', async () => {
    const r = rig();
    cardSim(r.engine.state).deck.choose({ name: 'stripe card', via: 'stripe' });
    const a = data(await r.send(encodeFrame(cmd('CEX', par(0x06, 'X1')))));
    expect(text(a.get(0x8040)!)).toBe('90');
  });
});

describe('an answer too big for a packet (§6.4.3 ST_RSPOVRFL)', () => {
  it('GIX asking 60 key maps of 100 bytes (6 kB of answer) answers GIX045 instead of crashing', async () => {
    const r = rig();
    const ids = Buffer.from('8032'.repeat(60), 'hex');
    expect(text(await r.send(encodeFrame(cmd('GIX', par(0x01, ids)))))).toBe('GIX045');
  });
});
