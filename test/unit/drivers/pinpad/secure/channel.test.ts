import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcSeed } from '../../../../helpers/fc-seed.js';
import {
  checkResponse,
  decodeResponse,
  encodeCommand,
  encodeResponse,
  isPinpadError,
  type SessionControl,
} from '../../../../../drivers/pinpad/index.js';
import {
  SecureChannel,
  isSealed,
  openPacket,
  sealPacket,
  terminalKeyFromPem,
  type OpnPublicKey,
} from '../../../../../drivers/pinpad/secure/index.js';
import { DEFAULT_PROFILE, type SimContext, type SimState } from '../../../../../src/sim/pinpad/index.js';
import {
  openWithSecureChannel,
  secureLayerOf,
  secureSession,
  wrapSessionKey,
} from '../../../../../src/sim/pinpad/secure/index.js';

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
}) as string;
const terminalKey = terminalKeyFromPem(pem);
const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

describe('RSA PKCS#1 v1.5 (§5.2.1): the sim wraps, node-forge unwraps', () => {
  it('gives KSEC back, for several random keys; a spoiled cryptogram opens to another key (implicit rejection)', () => {
    for (let i = 0; i < 8; i++) {
      const ksec = Uint8Array.from(randomBytes(16));
      const crk = wrapSessionKey(terminalKey.modulus, terminalKey.publicExponent, ksec);
      expect(crk.length).toBe(256);
      expect(terminalKey.unwrap(crk)).toEqual(ksec);
      crk[10] = crk[10]! ^ 0xff;
      expect(terminalKey.unwrap(crk)).not.toEqual(ksec);
    }
  });

  it('refuses a key that is not 2048 bits, or not a key, and never prints the private half', () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    expect(() => terminalKeyFromPem(small)).toThrow(/256 bytes/);
    expect(() => terminalKeyFromPem('not a key')).toThrow(/PEM/);
    expect(JSON.stringify({ terminalKey })).toBe('{"terminalKey":{"kind":"rsa terminal key","modulusBits":2048}}');
  });
});

/** A session control whose `run` is the virtual pinpad's OPN handler, in memory (the link is tested over a pty). */
function fakeSession(
  state: SimState,
  answer?: (data: Uint8Array) => Uint8Array,
): SessionControl & { layers: unknown[] } {
  const layers: unknown[] = [];
  return {
    layers,
    setLayer: (l) => layers.push(l),
    run: async (spec, req) => {
      const data = spec.encode(req);
      const cmd = { id: 'OPN', blocks: data.length > 3 ? [data.subarray(6)] : [], data };
      const ctx = { profile: DEFAULT_PROFILE, state, setLayerAfterResponse: () => undefined } as unknown as SimContext;
      const rsp = decodeResponse(answer ? answer(data) : openWithSecureChannel(cmd, ctx));
      checkResponse('OPN', rsp);
      return Promise.resolve(spec.decode(rsp, req));
    },
  };
}

function simState(): SimState {
  return { display: ['', ''], opened: false, session: {}, received: [], cans: 0 };
}

describe('SecureChannel as the packet layer', () => {
  it('opens a session with the secure OPN and seals everything but OPN', async () => {
    const state = simState();
    const ch = new SecureChannel(terminalKey);
    const s = fakeSession(state);
    await ch.openSession(s);
    expect(s.layers).toEqual([ch]);
    expect(ch.status).toEqual({ recognition: 'abecs', secure: true, sessions: 1 });
    const ksec = secureSession(state)!.ksec;
    const gix = encodeCommand('GIX', [Uint8Array.of(0, 1, 0, 2, 0x80, 1)]);
    const sealed = ch.seal(gix, 'GIX');
    expect(isSealed(sealed)).toBe(true);
    expect(openPacket(ksec, sealed)).toEqual(gix);
    expect(ch.seal(encodeCommand('OPN'), 'OPN')).toEqual(encodeCommand('OPN'));
    expect(ch.open(sealPacket(ksec, encodeResponse('GIX', 0)))).toEqual(encodeResponse('GIX', 0));
  });

  it('takes clear answers only where §5.2.2/§6.3.2 send them, and ends the session where the pinpad does', async () => {
    const make = async () => {
      const ch = new SecureChannel(terminalKey);
      await ch.openSession(fakeSession(simState()));
      return ch;
    };
    let ch = await make();
    expect(ch.open(encodeResponse('CLO', 9))).toEqual(encodeResponse('CLO', 9)); // clear CLO refused… but a CLO answer ends it
    expect(ch.status).toMatchObject({ secure: false, lastEnd: 'clo' });
    expect(ch.lost).toBe(false);

    ch = await make();
    expect(text(ch.open(encodeResponse('DSP', 9)))).toBe('DSP009'); // a clear command refused: the session holds
    expect(ch.status.secure).toBe(true);

    ch = await make();
    ch.open(encodeResponse('ERR', 9));
    expect(ch.status).toMatchObject({ secure: false, lastEnd: 'err009' });
    expect(ch.lost).toBe(true);

    ch = await make();
    ch.open(encodeResponse('GIX', 3));
    expect(ch.status).toMatchObject({ secure: false, lastEnd: 'nosec' });
    expect(ch.lost).toBe(true);

    ch = await make();
    const e = (() => {
      try {
        return ch.open(encodeResponse('GIX', 0));
      } catch (x) {
        return x;
      }
    })();
    expect(isPinpadError(e, 'PINPAD_PROTOCOL')).toBe(true);
    expect(ch.status.secure).toBe(true);

    ch = await make();
    expect(() => ch.open(Uint8Array.of(0x12, ...new Uint8Array(16)))).toThrow();
    expect(ch.status).toMatchObject({ secure: false, lastEnd: 'bad-answer' });
    expect(ch.lost).toBe(true);
  });

  it('fails closed once a current pinpad lost its session: only OPN leaves in clear, only an error status or OPN comes back clear', async () => {
    const ch = new SecureChannel(terminalKey);
    await ch.openSession(fakeSession(simState()));
    ch.open(encodeResponse('GIX', 3)); // xxx003: the pinpad rebooted, no session on its side
    expect(ch.status).toMatchObject({ recognition: 'abecs', secure: false, lastEnd: 'nosec' });
    const refused = (f: () => unknown): unknown => {
      try {
        f();
        return undefined;
      } catch (e) {
        return e;
      }
    };
    for (const id of ['GCD', 'GTK', 'DSP', 'CLO']) {
      const e = refused(() => ch.seal(encodeCommand(id), id));
      expect(isPinpadError(e, 'PINPAD_DISCONNECTED')).toBe(true);
      expect((e as Error).message).toContain(`${id}: no secure session`);
    }
    expect(ch.seal(encodeCommand('OPN'), 'OPN')).toEqual(encodeCommand('OPN'));
    // a clear 000 answer (a typed number, say) is never handed over; an error status and OPN's answer are
    const clearPan = encodeResponse('GCD', 0, [Buffer.from('015', 'latin1'), Buffer.from('5500000000000004')]);
    expect(
      isPinpadError(
        refused(() => ch.open(clearPan)),
        'PINPAD_PROTOCOL',
      ),
    ).toBe(true);
    expect(text(ch.open(encodeResponse('ERR', 3)))).toBe('ERR003');
    expect(text(ch.open(encodeResponse('OPN', 0)))).toBe('OPN000');
    // a classic pinpad keeps its clear traffic
    const classic = new SecureChannel(terminalKey);
    await classic.openSession(fakeSession(simState(), () => encodeResponse('OPN', 0)));
    expect(classic.seal(encodeCommand('DSP'), 'DSP')).toEqual(encodeCommand('DSP'));
    expect(text(classic.open(encodeResponse('DSP', 0)))).toBe('DSP000');
  });

  it('any answer bytes: opened data, or a PinpadError; never another throw (1000 runs)', async () => {
    const ch = new SecureChannel(terminalKey);
    const state = simState();
    await ch.openSession(fakeSession(state));
    const ksec = Uint8Array.from(secureSession(state)!.ksec);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), fc.boolean(), (bytes, seal) => {
        if (!ch.status.secure) ch['key'] = Uint8Array.from(ksec); // keep a session to exercise both paths
        try {
          ch.open(seal ? sealPacket(ksec, bytes) : bytes);
        } catch (e) {
          expect(isPinpadError(e)).toBe(true);
        }
      }),
      { numRuns: 1000, seed: fcSeed('channel open') },
    );
  });

  it('recognises an obsolete pinpad (OPN000 to the secure OPN) and keeps traffic clear', async () => {
    const ch = new SecureChannel(terminalKey);
    await ch.openSession(fakeSession(simState(), () => encodeResponse('OPN', 0)));
    expect(ch.status).toEqual({ recognition: 'classic', secure: false, sessions: 0 });
    expect(ch.seal(encodeCommand('DSP'), 'DSP')).toEqual(encodeCommand('DSP'));
  });

  it('a refused secure OPN is not an obsolete pinpad: it is tried again, then reported; never a classic OPN (§3.2.2)', async () => {
    const sent: string[] = [];
    const ch = new SecureChannel(terminalKey);
    const err = await ch
      .openSession(
        fakeSession(simState(), (d) => {
          sent.push(text(d.subarray(0, 6)));
          return d.length > 3 ? encodeResponse('OPN', 11) : encodeResponse('OPN', 0);
        }),
      )
      .catch((e: unknown) => e);
    expect(isPinpadError(err, 'PINPAD_STATUS')).toBe(true);
    expect(sent).toEqual(['OPN523', 'OPN523', 'OPN523']); // 1 + 3 + 512 + 1 + 6 (e = 010001h)
    expect(ch.status.recognition).toBe('unknown');
  });

  it('only a bare OPN000 to the secure OPN marks the pinpad obsolete (§3.2.2 "Resposta (pinpad obsoleto)")', async () => {
    const ch = new SecureChannel(terminalKey);
    await ch.openSession(fakeSession(simState(), () => encodeResponse('OPN', 0)));
    expect(ch.status.recognition).toBe('classic');
  });
});

describe('the virtual pinpad side (§6.3.2)', () => {
  async function opened(): Promise<{ state: SimState; ksec: Uint8Array; pub: OpnPublicKey }> {
    const state = simState();
    const ch = new SecureChannel(terminalKey);
    await ch.openSession(fakeSession(state));
    return { state, ksec: secureSession(state)!.ksec, pub: terminalKey };
  }
  const refusal = (layer: ReturnType<typeof secureLayerOf>, data: Uint8Array): string => {
    expect(() => layer.open(data)).toThrow();
    return text(layer.seal(encodeResponse('ERR', 40), 'ERR'));
  };

  it('answers ERR003 to a DC2 packet with no session, ERR009 to one that fails the checks (session ended)', async () => {
    const state = simState();
    const layer = secureLayerOf(state);
    expect(refusal(layer, sealPacket(new Uint8Array(16), encodeCommand('GIX')))).toBe('ERR003');
    const o = await opened();
    const l2 = secureLayerOf(o.state);
    const bad = sealPacket(o.ksec, encodeCommand('GIX'));
    bad[5] = bad[5]! ^ 1;
    expect(refusal(l2, bad)).toBe('ERR009');
    expect(secureSession(o.state)).toBeUndefined();
  });

  it('answers xxx009 in clear to a clear command inside a session, keeping it; OPN010 to an encrypted OPN, ending it', async () => {
    const o = await opened();
    const layer = secureLayerOf(o.state);
    expect(refusal(layer, encodeCommand('CLO', [new Uint8Array(32).fill(0x20)]))).toBe('CLO009');
    expect(secureSession(o.state)?.ksec).toEqual(o.ksec);
    expect(layer.open(sealPacket(o.ksec, encodeCommand('DSP')))).toEqual(encodeCommand('DSP'));
    expect(isSealed(layer.seal(encodeResponse('DSP', 0), 'DSP'))).toBe(true);
    expect(layer.seal(encodeResponse('CLO', 0), 'CLO')).toEqual(encodeResponse('CLO', 0));
    expect(refusal(layer, sealPacket(o.ksec, encodeCommand('OPN')))).toBe('OPN010');
    expect(secureSession(o.state)).toBeUndefined();
  });

  it('answers OPN011 to a malformed secure OPN', () => {
    const state = simState();
    const ctx = { profile: DEFAULT_PROFILE, state, setLayerAfterResponse: () => undefined } as unknown as SimContext;
    const bad = Buffer.from('0256ZZ');
    expect(text(openWithSecureChannel({ id: 'OPN', blocks: [bad], data: bad }, ctx))).toBe('OPN011');
    const good = encodeCommand('OPN', [new Uint8Array()]);
    expect(text(openWithSecureChannel({ id: 'OPN', blocks: [], data: good }, ctx))).toBe('OPN000');
  });
});
