import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PinpadFrameReader, type ReaderEvent } from '../../../../../src/sim/pinpad/wire/frame-reader.js';
import { packetLimit } from '../../../../../src/sim/pinpad/engine.js';
import { linkCrc } from '../../../../../src/sim/pinpad/wire/link-bytes.js';
import { loggedCrc, onTheWire, PPC930_COMMANDS, pktdata } from '../../../../helpers/ppc930-commands.js';

const SPEC = 'guilhermecabral05/abecs-rust protocolo_abecs_2_20.md';
const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

/** A reader driven by a hand clock: bytes at `t`, then time passes. */
function rig(limitFor = packetLimit) {
  const r = new PinpadFrameReader({ limitFor });
  const events: ReaderEvent[] = [];
  let now = 0;
  return {
    r,
    events,
    push(b: Uint8Array, dt = 0) {
      now += dt;
      events.push(...r.push(b, now));
    },
    wait(ms: number) {
      now += ms;
      events.push(...r.tick(now));
    },
    get now() {
      return now;
    },
  };
}

/** Escapes PKTDATA as §2.2.1 says, independently of the sim's writer. */
function frame(data: Uint8Array, crc = linkCrc(data)): Uint8Array {
  const out = [0x16];
  for (const b of data) out.push(...(b === 0x13 || b === 0x16 || b === 0x17 ? [0x13, b + 0x20] : [b]));
  out.push(0x17, crc >> 8, crc & 0xff);
  return Uint8Array.from(out);
}

describe("the virtual pinpad reads the link as §6.2.1 says (its own reader, not the driver's)", () => {
  it(`takes the specification's examples (${SPEC} §2.2.2.1 OPN, §2.2.2.2 DSP, §2.2.2.3 GCD)`, () => {
    const s = rig();
    s.push(hex('16 4F 50 4E 17 A8 A9')); // §2.2.2.1 line 1117: "O pinpad devolve «ACK» e acata o comando"
    s.push(
      hex(
        '16 44 53 50 30 33 32 20 20 20 20 4F 50 45 52 41 C7 C3 4F 20 20 20 20 20 20 20 46 49 4E 41 4C 49 5A 41 44 41 20 20 20 17 52 13',
      ),
    ); // §2.2.2.2 line 1180
    s.push(hex('16 47 43 44 30 31 36 00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09 17 C1 42')); // §2.2.2.3 line 1290
    expect(s.events.map((e) => (e.type === 'packet' ? latin1(e.data).slice(0, 6) : e.type))).toEqual([
      'OPN',
      'DSP032',
      'GCD016',
    ]);
  });

  it('NAKs the §2.2.2.1 example with a wrong CRC (16 4F 50 4E 17 00 00) only after 500 ms of silence', () => {
    const s = rig();
    s.push(hex('16 4F 50 4E 17 00 00'));
    s.wait(499);
    expect(s.events).toEqual([]);
    s.push(hex('41 42')); // the rest of a bad packet restarts the silence
    s.wait(499);
    expect(s.events).toEqual([]);
    s.wait(1);
    expect(s.events).toEqual([{ type: 'reject', reason: 'crc', length: 9 }]);
    expect(s.r.busy).toBe(false);
  });

  it('takes the commands a production client sent to a real PPC930 (transcao_completa_com_scope.txt), whose logged CRCs match the data', () => {
    for (const [name, h] of Object.entries(PPC930_COMMANDS)) {
      expect(linkCrc(pktdata(h)), name).toBe(loggedCrc(h));
      const s = rig();
      s.push(onTheWire(h));
      expect(s.events, name).toEqual([{ type: 'packet', data: Uint8Array.from(pktdata(h)) }]);
    }
  });

  it('NAKs a bad escape (DC3 followed by anything but 33h, 36h or 37h) after the silence', () => {
    const s = rig();
    s.push(hex('16 44 53 50 13 41 17 00 00'));
    s.wait(500);
    expect(s.events).toEqual([{ type: 'reject', reason: 'escape', length: 9 }]);
  });

  it('NAKs a packet that stops mid-way after 1.5 s without a byte and 500 ms of silence, never earlier', () => {
    const s = rig();
    s.push(hex('16 47 49 58'));
    s.wait(1000);
    s.push(hex('30 30'));
    s.wait(1499);
    s.wait(500);
    expect(s.events).toEqual([]);
    s.wait(1);
    expect(s.events).toEqual([{ type: 'reject', reason: 'timeout', length: 6 }]);
  });

  it('refuses a classic command over 1024 bytes of PKTDATA, takes an Abecs one of 2049, refuses 2050', () => {
    const dsp = new Uint8Array(1025).fill(0x41);
    dsp.set(Buffer.from('DSP'));
    const s = rig();
    s.push(frame(dsp));
    s.wait(500);
    expect(s.events).toEqual([{ type: 'reject', reason: 'too-long', length: expect.any(Number) as number }]);
    for (const n of [1024, 2049, 2050]) {
      const gix = new Uint8Array(n).fill(0x41);
      gix.set(Buffer.from(n === 1024 ? 'DSP' : 'GIX'));
      const t = rig();
      t.push(frame(gix));
      t.wait(500);
      expect(t.events[0]?.type, String(n)).toBe(n === 2050 ? 'reject' : 'packet');
    }
  });

  it('outside a packet: CAN and NAK are heard, ACK and noise are not; inside one, CAN is data', () => {
    const s = rig();
    s.push(hex('00 41 18 15 06 FF'));
    expect(s.events).toEqual([{ type: 'can' }, { type: 'nak' }, { type: 'ack' }]);
    expect(s.r.noise).toBe(3);
    s.events.length = 0;
    const data = Uint8Array.from([...Buffer.from('GIX'), 0x18, 0x15]);
    s.push(frame(data));
    expect(s.events).toEqual([{ type: 'packet', data }]);
  });

  it('a stray SYN before a command: the command becomes data of a bad packet, NAKed after the silence', () => {
    const s = rig();
    s.push(Uint8Array.of(0x16));
    s.push(hex('16 4F 50 4E 17 A8 A9'), 10);
    s.wait(500);
    expect(s.events).toEqual([{ type: 'reject', reason: 'crc', length: 8 }]);
  });
});

const RUNS = { numRuns: 1000 };

/** PKTDATA that is not a classic command (any bytes, 1..2049), so its limit is 2049. */
const abecsData = fc.uint8Array({ minLength: 1, maxLength: 2049 }).map((d) => {
  const out = Uint8Array.from(d);
  if (out.length >= 3) out.set(Buffer.from('GIX'));
  return out;
});

describe('frame reader properties (fast-check, 1000 runs)', () => {
  it('a valid packet split anywhere and delivered at any pace under 1.5 s per chunk gives exactly that packet', () => {
    fc.assert(
      fc.property(
        abecsData,
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 1499 }), { maxLength: 8 }),
        (data, cuts, gaps) => {
          const wire = frame(data);
          const points = [...new Set(cuts.map((c) => c % wire.length))].sort((a, b) => a - b);
          const s = rig();
          let at = 0;
          points.forEach((p, i) => {
            s.push(wire.subarray(at, p), gaps[i] ?? 0);
            at = p;
          });
          s.push(wire.subarray(at), gaps[points.length] ?? 0);
          s.wait(5000);
          expect(s.events).toEqual([{ type: 'packet', data }]);
        },
      ),
      RUNS,
    );
  });

  it('any bytes at any times: never a throw, a packet only with a good CRC, a NAK only after 500 ms of silence', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uint8Array({ maxLength: 40 }), fc.integer({ min: 0, max: 2500 })), { maxLength: 30 }),
        (chunks) => {
          const s = rig();
          let lastByte = -Infinity;
          for (const [bytes, dt] of chunks) {
            const before = s.events.length;
            s.push(bytes, dt);
            for (const e of s.events.slice(before)) {
              if (e.type === 'reject') expect(s.now - lastByte).toBeGreaterThanOrEqual(500);
            }
            if (bytes.length > 0) lastByte = s.now;
          }
          s.wait(10_000);
          for (const e of s.events) {
            if (e.type === 'packet') {
              expect(e.data.length).toBeGreaterThan(0);
              expect(e.data.length).toBeLessThanOrEqual(2049);
            }
          }
          expect(s.r.busy).toBe(false);
        },
      ),
      RUNS,
    );
  });

  it('a valid packet with one byte of its CRC changed is never taken: NAK after the silence', () => {
    fc.assert(
      fc.property(abecsData, fc.integer({ min: 1, max: 255 }), fc.boolean(), (data, flip, high) => {
        const crc = linkCrc(data) ^ (high ? flip << 8 : flip);
        const s = rig();
        s.push(frame(data, crc));
        s.wait(500);
        expect(s.events).toEqual([{ type: 'reject', reason: 'crc', length: frame(data).length }]);
      }),
      RUNS,
    );
  });
});
