import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameDecoder, type LinkEvent } from '../../../../drivers/pinpad/decoder.js';
import { fcSeed } from '../../../helpers/fc-seed.js';

const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));
const controls = (events: LinkEvent[]): number[] => events.flatMap((e) => (e.type === 'control' ? [e.byte] : []));

describe('decoder: no phantom control bytes (§2.2.1, §2.2.3)', () => {
  it('DC3 is followed only by 33h, 36h or 37h: DC3 41h is a bad escape, not the byte 21h', () => {
    // "A" DC3 "A" ETB CRC: the old decoder took DC3 41h as 21h ("!") and delivered the packet if the CRC matched
    const crcOfBang = '00 00';
    const events = new FrameDecoder().push(hex(`16 41 13 41 17 ${crcOfBang}`));
    expect(events[0]).toEqual({ type: 'bad-frame', reason: 'escape', length: 4 });
    for (const ok of [0x33, 0x36, 0x37]) {
      const e = new FrameDecoder().push(Uint8Array.of(0x16, 0x41, 0x13, ok));
      expect(e.filter((x) => x.type === 'bad-frame')).toEqual([]);
    }
  });

  it("after a bad escape the packet's remaining bytes (ACK, NAK, EOT, SYN) are discarded until silence", () => {
    const d = new FrameDecoder({ silenceMs: 500 });
    const first = d.push(hex('16 41 13 01 06 15 04 18 16 42'), 1000);
    expect(first[0]).toMatchObject({ type: 'bad-frame', reason: 'escape' });
    expect(controls(first)).toEqual([]);
    expect(controls(d.push(hex('06 04'), 1400))).toEqual([]); // 400 ms later: still the same burst
    expect(controls(d.push(hex('06'), 1900))).toEqual([0x06]); // after 500 ms of silence: a real ACK
  });

  it('after an over-long packet its remaining bytes are discarded until silence', () => {
    const d = new FrameDecoder({ silenceMs: 500 });
    const long = new Uint8Array(2051).fill(0x41);
    long[0] = 0x16;
    const events = d.push(Uint8Array.from([...long, 0x04, 0x06, 0x17, 0x00, 0x00]), 0);
    expect(events.filter((e) => e.type === 'bad-frame')).toEqual([
      { type: 'bad-frame', reason: 'too-long', length: 2051 },
    ]);
    expect(controls(events)).toEqual([]);
    expect(controls(d.push(hex('04'), 600))).toEqual([0x04]);
  });

  it('a packet that stalls is dropped by stall() and the decoder hunts again', () => {
    const d = new FrameDecoder({ silenceMs: 500 });
    d.push(hex('16 47 43 44 30'), 0);
    expect(d.inFrame).toBe(true);
    expect(d.stall()).toEqual({ type: 'bad-frame', reason: 'stalled', length: 5 });
    expect(controls(d.push(hex('04'), 10))).toEqual([0x04]);
    expect(d.stall()).toBeUndefined();
  });

  // (SYN right after DC3 is a cut packet and a new one, §2.2.3, not a bad escape.)
  it('property: after any rejected packet, no control byte is reported until silence (1000 runs)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 50 }),
        fc.integer({ min: 0, max: 0x32 }).filter((b) => b !== 0x16),
        fc.uint8Array({ maxLength: 50 }),
        (before, badEscape, rest) => {
          const d = new FrameDecoder({ silenceMs: 500 });
          d.push(before, 0);
          d.reset();
          const events = d.push(Uint8Array.from([0x16, 0x41, 0x13, badEscape, ...rest]), 1000);
          const i = events.findIndex((e) => e.type === 'bad-frame' && e.reason === 'escape');
          expect(i).toBeGreaterThanOrEqual(0);
          expect(events.slice(i + 1).filter((e) => e.type !== 'discarded')).toEqual([]);
        },
      ),
      { numRuns: 1000, seed: fcSeed('no phantom controls') },
    );
  });
});
