import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../../drivers/pinpad/frame.js';
import { FrameDecoder, type LinkEvent } from '../../../../drivers/pinpad/decoder.js';
import { PinpadFramer } from '../../../../drivers/pinpad/framer.js';
import { fcSeed } from '../../../helpers/fc-seed.js';

/** Cuts `bytes` at the given offsets (sorted, deduplicated) into chunks. */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  out.push(bytes.subarray(prev));
  return out;
}

const frameData = fc.uint8Array({ minLength: 1, maxLength: 300 });

describe('framer properties', () => {
  it('random byte streams, cut anywhere, never throw, always return, and account for every byte', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.array(fc.nat(), { maxLength: 20 }), (bytes, cuts) => {
        const d = new FrameDecoder();
        const events: LinkEvent[] = [];
        for (const chunk of split(bytes, cuts)) events.push(...d.push(chunk));
        let accounted = 0;
        for (const e of events) {
          if (e.type === 'frame') expect(e.data.length).toBeGreaterThan(0);
          accounted +=
            e.type === 'discarded' ? e.count : e.type === 'bad-frame' ? e.length : e.type === 'control' ? 1 : 0;
        }
        accounted += d.reset();
        expect(accounted).toBeLessThanOrEqual(bytes.length);
      }),
      { numRuns: 1000, seed: fcSeed('random streams') },
    );
  });

  it('random valid packets, joined and split at random points, decode to themselves in order', () => {
    fc.assert(
      fc.property(
        fc.array(frameData, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (datas, cuts) => {
          const wire = Buffer.concat(datas.map((d) => encodeFrame(d)));
          const d = new FrameDecoder();
          const events = split(wire, cuts).flatMap((c) => d.push(c));
          expect(events).toEqual(datas.map((data) => ({ type: 'frame', data })));
        },
      ),
      { numRuns: 1000, seed: fcSeed('split packets') },
    );
  });

  it('a valid packet after any garbage is still found once the garbage is followed by silence (reset)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), frameData, (garbage, data) => {
        const d = new FrameDecoder();
        d.push(garbage);
        d.reset();
        const events = d.push(encodeFrame(data));
        expect(events).toEqual([{ type: 'frame', data }]);
      }),
      { numRuns: 1000, seed: fcSeed('garbage then packet') },
    );
  });

  it('a packet with one flipped byte is never delivered as if intact', () => {
    fc.assert(
      fc.property(frameData, fc.nat(), fc.integer({ min: 1, max: 255 }), (data, at, flip) => {
        const wire = Uint8Array.from(encodeFrame(data));
        const i = at % wire.length;
        wire[i] = wire[i]! ^ flip;
        const frames = new FrameDecoder().push(wire).filter((e) => e.type === 'frame');
        for (const f of frames) expect(f.type === 'frame' && Buffer.from(f.data).equals(Buffer.from(data))).toBe(false);
      }),
      { numRuns: 1000, seed: fcSeed('flipped byte') },
    );
  });
});

describe('PinpadFramer stream', () => {
  it('emits packets, control bytes and discards as objects, and never errors on garbage', async () => {
    const framer = new PinpadFramer();
    const got: LinkEvent[] = [];
    framer.on('data', (e: LinkEvent) => got.push(e));
    const errors: unknown[] = [];
    framer.on('error', (e) => errors.push(e));
    const wire = encodeFrame(Buffer.from('GIN00200'));
    framer.write(Uint8Array.of(0xff, 0x00));
    framer.write(wire.subarray(0, 4));
    framer.write(Buffer.concat([wire.subarray(4), Uint8Array.of(0x06), Uint8Array.of(0x16, 0x41)]));
    framer.end();
    await new Promise((r) => framer.on('end', r));
    expect(errors).toEqual([]);
    expect(got).toEqual([
      { type: 'discarded', count: 2 },
      { type: 'frame', data: Uint8Array.from(Buffer.from('GIN00200')) },
      { type: 'control', byte: 0x06 },
      { type: 'bad-frame', reason: 'truncated', length: 2 },
    ]);
  });
});
