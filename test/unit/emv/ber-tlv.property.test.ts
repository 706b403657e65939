import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  decodeTlv,
  dumpTlv,
  encodeTlv,
  tlvToJson,
  toHex,
  type TlvInput,
  type TlvObject,
} from '../../../src/emv/index.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
const RUNS = 1000;
// Printed so a failure can be replayed with FC_SEED=<seed>.
console.log(`fast-check seed (emv): ${SEED}`);

const hex2 = (n: number): string => n.toString(16).toUpperCase().padStart(2, '0');

/** A well-formed tag: one byte (low bits not 1F), or 1F-marked first byte and 1 to 3 more. */
const tagArb = (constructed: boolean): fc.Arbitrary<string> => {
  const cls = fc.constantFrom(0x00, 0x40, 0x80, 0xc0);
  const single = fc
    .tuple(cls, fc.integer({ min: 0, max: 0x1e }))
    .map(([c, n]) => c | (constructed ? 0x20 : 0) | n)
    .filter((b) => b !== 0x00 && b !== 0xff);
  const multi = fc
    .tuple(cls, fc.array(fc.integer({ min: 0x81, max: 0xff }), { maxLength: 2 }), fc.integer({ min: 0x00, max: 0x7f }))
    .map(([c, mid, last]) => [c | (constructed ? 0x20 : 0) | 0x1f, ...mid, last].map(hex2).join(''))
    .filter((t) => t !== 'FF' && !t.startsWith('FF'));
  return fc.oneof(single.map(hex2), multi);
};

const tlvArb: fc.Arbitrary<TlvInput> = fc.letrec<{ node: TlvInput }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ tag: tagArb(false), value: fc.uint8Array({ maxLength: 300 }) }),
    fc.record({ tag: tagArb(true), children: fc.array(tie('node'), { maxLength: 4 }) }),
  ),
})).node;

function plain(o: TlvObject): unknown {
  return o.children ? { tag: o.tag, children: o.children.map(plain) } : { tag: o.tag, value: toHex(o.value) };
}
function plainInput(o: TlvInput): unknown {
  return o.children
    ? { tag: o.tag, children: o.children.map(plainInput) }
    : { tag: o.tag, value: toHex(o.value as Uint8Array) };
}

function typedOrValue(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    return isOmniposError(e, 'TLV_INVALID');
  }
}

describe(`BER-TLV properties (seed ${SEED}, ${RUNS} runs each)`, () => {
  it('decode(encode(x)) = x', () => {
    fc.assert(
      fc.property(fc.array(tlvArb, { maxLength: 5 }), (objects) => {
        expect(decodeTlv(encodeTlv(objects)).map(plain)).toEqual(objects.map(plainInput));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('random bytes give objects or TLV_INVALID, never another exception', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        (bytes) => typedOrValue(() => decodeTlv(bytes)) && typeof dumpTlv(bytes) === 'string',
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('random bytes shaped like TLV (tag-ish first bytes, long lengths, deep nesting) are handled', () => {
    const piece = fc.oneof(
      fc.constantFrom(0x70, 0x77, 0x6f, 0xa5, 0xbf, 0x9f, 0x5f, 0xdf, 0x81, 0x82, 0x83, 0x84, 0x80, 0x00, 0xff),
      fc.integer({ min: 0, max: 255 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), (arr) => typedOrValue(() => decodeTlv(Uint8Array.from(arr)))),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('random strings as hex give objects or TLV_INVALID', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => typedOrValue(() => decodeTlv(s))),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('card data never appears in clear in the dump or the JSON, wherever it sits', () => {
    const pan = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 16, maxLength: 19 });
    fc.assert(
      fc.property(pan, fc.array(tlvArb, { maxLength: 3 }), fc.nat(3), (digits, others, at) => {
        const panHex = digits.length % 2 ? `${digits}F` : digits;
        const track2 = `${digits}D2512201000000000`;
        const card: TlvInput[] = [
          { tag: '5A', value: panHex },
          { tag: '57', value: track2.length % 2 ? `${track2}F` : track2 },
          { tag: '9F6B', value: track2.length % 2 ? `${track2}F` : track2 },
          { tag: '5F20', value: toHex(new TextEncoder().encode('JOAO DA SILVA')) },
        ];
        const record: TlvInput = { tag: '70', children: [...others.slice(0, at), ...card, ...others.slice(at)] };
        const bytes = encodeTlv({ tag: '77', children: [record] });
        const shown = dumpTlv(bytes) + JSON.stringify(tlvToJson(decodeTlv(bytes)));
        expect(shown).not.toContain(digits);
        expect(shown).not.toContain(toHex(new TextEncoder().encode('JOAO DA SILVA')));
        expect(shown).toContain(`${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  // A hang (or a quadratic walk of 1 MB) ends at the test's timeout: no bound on elapsed time here.
  it('a 1 MB buffer of nested headers ends (no hang)', () => {
    const big = new Uint8Array(1 << 20).fill(0x70);
    expect(typedOrValue(() => decodeTlv(big))).toBe(true);
  });
});
