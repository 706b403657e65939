import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { decodeTlv, encodeTlv, findTlv, tagBytes, toHex, type TlvObject } from '../../../src/emv/index.js';
import vectors from '../../vectors/emv/tlv-card-responses.json' with { type: 'json' };

interface Row {
  source: string;
  hex: string;
  top: string[];
  values?: Record<string, string>;
  lengths?: Record<string, number>;
  childTags?: Record<string, string[]>;
}

function caught(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describe('BER-TLV decode: card responses from public EMV libraries', () => {
  it.each((vectors.rows as unknown as Row[]).map((r) => [r.source, r] as const))('%s', (_source, row) => {
    const objects = decodeTlv(row.hex);
    expect(objects.map((o) => o.tag)).toEqual(row.top);
    for (const [tag, value] of Object.entries(row.values ?? {}))
      expect(toHex(findTlv(objects, tag)!.value), tag).toBe(value);
    for (const [tag, length] of Object.entries(row.lengths ?? {}))
      expect(findTlv(objects, tag)!.value.length, tag).toBe(length);
    for (const [tag, tags] of Object.entries(row.childTags ?? {}))
      expect(findTlv(objects, tag)!.children!.map((c) => c.tag)).toEqual(tags);
    // Minimal-length data re-encodes byte for byte.
    expect(toHex(encodeTlv(objects.map(asInput)))).toBe(row.hex.toUpperCase());
  });
});

function asInput(o: TlvObject): { tag: string; value?: Uint8Array; children?: ReturnType<typeof asInput>[] } {
  return o.children ? { tag: o.tag, children: o.children.map(asInput) } : { tag: o.tag, value: o.value };
}

describe('BER-TLV decode: malformed data is TLV_INVALID with the offset', () => {
  it.each(vectors.invalid.map((r) => [r.source, r] as const))('%s', (_source, row) => {
    const e = caught(() => decodeTlv(row.hex));
    expect(isOmniposError(e, 'TLV_INVALID')).toBe(true);
    const err = e as { message: string; context: { offset: number } };
    expect(err.message).toContain(row.message);
    expect(err.context.offset).toBe(row.offset);
  });

  it('refuses nesting deeper than 32 levels instead of overflowing the stack', () => {
    let bytes = Uint8Array.from([0x5a, 0x00]);
    for (let i = 0; i < 40; i++) bytes = Uint8Array.from([0x70, bytes.length, ...bytes]);
    const e = caught(() => decodeTlv(bytes));
    expect(isOmniposError(e, 'TLV_INVALID')).toBe(true);
    expect((e as Error).message).toContain('nested deeper');
  });

  it('refuses a bad hex string naming the character', () => {
    const e = caught(() => decodeTlv('5A0G'));
    expect(isOmniposError(e, 'TLV_INVALID')).toBe(true);
    expect((e as { context: { offset: number } }).context.offset).toBe(3);
    expect(
      isOmniposError(
        caught(() => decodeTlv('5A0')),
        'TLV_INVALID',
      ),
    ).toBe(true);
  });
});

describe('BER-TLV decode: padding and fill between objects', () => {
  // EMV 4.4 Book 3 Annex B: "'00' bytes may occur before, between, or after data objects";
  // ISO/IEC 7816-4 5.2.2: '00' and 'FF' are invalid first tag bytes, used as padding.
  it('skips 00 and FF before, between, after and inside templates', () => {
    const objects = decodeTlv('0000 9F02 06 000000000100 FFFF 70 07 00 5F34 01 01 FF 00 FFFF 00');
    expect(objects.map((o) => o.tag)).toEqual(['9F02', '70']);
    expect(toHex(objects[0]!.value)).toBe('000000000100');
    expect(objects[1]!.children!.map((c) => [c.tag, toHex(c.value)])).toEqual([['5F34', '01']]);
  });

  it('gives an empty list for padding only and for nothing', () => {
    expect(decodeTlv('')).toEqual([]);
    expect(decodeTlv('00FF00')).toEqual([]);
  });

  it('accepts non-minimal long lengths (81 05) that some cards send', () => {
    const [o] = decodeTlv('5A81051234567890');
    expect(toHex(o!.value)).toBe('1234567890');
  });
});

describe('BER-TLV encode', () => {
  it('writes short, 81 and 82 lengths (ISO/IEC 8825-1 8.1.3)', () => {
    expect(toHex(encodeTlv({ tag: '9F02', value: '000000000100' }))).toBe('9F0206000000000100');
    expect(toHex(encodeTlv({ tag: 'DF01', value: new Uint8Array(200) })).slice(0, 8)).toBe('DF0181C8');
    expect(toHex(encodeTlv({ tag: 'DF01', value: new Uint8Array(300) })).slice(0, 10)).toBe('DF0182012C');
  });

  it('nests children of a constructed tag', () => {
    expect(
      toHex(
        encodeTlv({
          tag: '70',
          children: [
            { tag: '5F34', value: '01' },
            { tag: '9F42', value: '0986' },
          ],
        }),
      ),
    ).toBe('70095F3401019F42020986');
  });

  // ISO/IEC 8825-1 8.1.2: low bits 1F announce subsequent bytes, each but the last with bit 8 set.
  it.each([
    ['', 'empty'],
    ['00', 'padding'],
    ['FF', 'padding'],
    ['9F', 'announce more'],
    ['5A02', 'cannot have more'],
    ['9F8081', 'last byte has bit 8'],
    ['DF0102', 'lacks bit 8'],
    ['DF81818101', 'longer than 4'],
    ['ZZ', 'not hex'],
  ])('refuses tag %j (%s)', (tag, why) => {
    const e = caught(() => tagBytes(tag));
    expect(isOmniposError(e, 'TLV_INVALID')).toBe(true);
    expect((e as Error).message).toContain(why);
  });

  it('accepts one-, two- and three-byte tags', () => {
    expect([...tagBytes('5A')]).toEqual([0x5a]);
    expect([...tagBytes('9F02')]).toEqual([0x9f, 0x02]);
    expect([...tagBytes('DF8107')]).toEqual([0xdf, 0x81, 0x07]);
  });

  it('refuses children under a primitive tag', () => {
    expect(
      isOmniposError(
        caught(() => encodeTlv({ tag: '5A', children: [] })),
        'TLV_INVALID',
      ),
    ).toBe(true);
  });
});
