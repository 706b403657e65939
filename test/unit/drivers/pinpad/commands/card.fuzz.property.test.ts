import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  card,
  encodeParams,
  isPinpadError,
  type CommandSpec,
  type Response,
} from '../../../../../drivers/pinpad/index.js';
import { fcSeed } from '../../../../helpers/fc-seed.js';

const REQ = {
  GCX: { amount: 1, date: '261122', time: '101010', contactless: true },
  GTK: { keyIndex: 2, iv: new Uint8Array(8) },
  GOX: { acquirer: '03', amount: 1, pinKeyIndex: 1 },
  FCX: { outcome: 'approved', arc: '00' },
  GPN: { keyIndex: 1, message: '' },
  EBX: { data: new Uint8Array(8), keyIndex: 2, iv: new Uint8Array(8) },
  CEX: { stripe: true },
  MNU: { options: ['a', 'b'] },
} as const;
const PP_IDS = [
  0x8040, 0x8042, 0x8045, 0x8048, 0x804a, 0x804b, 0x804c, 0x804e, 0x804f, 0x8050, 0x8051, 0x8052, 0x8053, 0x8054,
  0x8056, 0x8057, 0x8058, 0x8059, 0x805b, 0x805d, 0x804d,
];

describe('card answers are decoded or refused with a PinpadError, never anything else (property)', () => {
  for (const [id, req] of Object.entries(REQ)) {
    it(`${id}: arbitrary PP_ data`, () => {
      const spec = (card as unknown as Record<string, CommandSpec<unknown, unknown>>)[id]!;
      const value = fc.oneof(
        fc.uint8Array({ maxLength: 40 }),
        fc.stringMatching(/^[0-9*=]{0,30}$/).map((s) => Buffer.from(s, 'latin1')),
      );
      const params = fc.array(fc.record({ id: fc.constantFrom(...PP_IDS), value }), { maxLength: 8 });
      fc.assert(
        fc.property(params, fc.boolean(), (ps, raw) => {
          const blocks = raw ? ps.map((p) => p.value) : encodeParams(ps);
          const rsp: Response = { id, status: 0, blocks };
          try {
            const out = spec.decode(rsp, req);
            // whatever decodes never carries a run of 13+ clear digits in a PAN or track field
            const r = out as Record<string, unknown>;
            for (const k of ['maskedPan', 'track1', 'track2', 'track3'])
              if (typeof r?.[k] === 'string') expect(/\d{13,}/.test(r[k])).toBe(false);
          } catch (e) {
            expect(isPinpadError(e)).toBe(true);
          }
        }),
        { numRuns: 1000, seed: fcSeed(`card decode ${id}`) },
      );
    });
  }

  it('maskPanField leaves at most left + right digits open of any PAN longer than that', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{13,19}$/),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 4 }),
        fc.stringMatching(/^=[0-9]{0,7}$/),
        (pan, l, r, rest) => {
          const m = card.maskPanField(pan + rest, l, r);
          const open = m.slice(0, pan.length).replace(/\*/g, '');
          expect(open.length).toBe(l + r);
          expect(m.slice(0, l)).toBe(pan.slice(0, l));
          expect(m.slice(pan.length)).toBe(rest);
        },
      ),
      { numRuns: 1000, seed: fcSeed('maskPanField') },
    );
  });
});
