import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  buildPix,
  crc16Hex,
  mpmChild,
  parseMpm,
  parsePix,
  parseQr,
  type MpmObject,
  type PixInput,
} from '../../../src/qr/index.js';
import vectors from '../../vectors/qr/published.json' with { type: 'json' };

function valueAt(objects: readonly MpmObject[], path: string): string | undefined {
  const [top, sub] = path.split('.') as [string, string | undefined];
  const o = mpmChild(objects, top);
  return sub === undefined ? o?.value : mpmChild(o?.children, sub)?.value;
}

describe('CRC-16/CCITT-FALSE', () => {
  it.each(vectors.crcCheck.map((r) => [r.source, r] as const))('%s', (_s, row) => {
    expect(crc16Hex(row.text)).toBe(row.crc);
  });

  it.each([...vectors.pix, ...vectors.mpm].map((r) => [r.source, r] as const))('CRC of %s', (_s, row) => {
    expect(crc16Hex(row.text.slice(0, -4))).toBe(row.crc);
    expect(row.text.endsWith(`6304${row.crc}`)).toBe(true);
  });
});

describe('Pix BR Codes (published)', () => {
  it.each(vectors.pix.map((r) => [r.source, r] as const))('parses %s', (_s, row) => {
    const pix = parsePix(row.text);
    expect(pix).toMatchObject(row.expect);
    expect(pix.crc16).toBe(row.crc);
    const q = parseQr(row.text);
    expect(q.model).toBe('pix');
  });

  it.each(vectors.pix.filter((r) => r.build).map((r) => [r.source, r] as const))(
    'builds byte for byte: %s',
    (_s, row) => {
      expect(buildPix(row.build as PixInput)).toBe(row.text);
    },
  );

  it.each(vectors.pix.map((r) => [r.source, r] as const))(
    'a changed CRC digit is refused with expected and found: %s',
    (_s, row) => {
      const last = row.text.at(-1)!;
      const bad = row.text.slice(0, -1) + (last === '0' ? '1' : '0');
      try {
        parsePix(bad);
        expect.unreachable();
      } catch (e) {
        expect(isOmniposError(e, 'QR_INVALID')).toBe(true);
        expect((e as Error).message).toBe(`63: CRC mismatch: expected ${row.crc}, found ${bad.slice(-4)}`);
        expect((e as { context: object }).context).toMatchObject({ id: '63', expected: row.crc, found: bad.slice(-4) });
      }
    },
  );
});

describe('EMVCo MPM examples (generic parse)', () => {
  it.each(vectors.mpm.map((r) => [r.source, r] as const))('%s', (_s, row) => {
    const objects = parseMpm(row.text);
    expect(objects.map((o) => o.id)).toEqual(row.ids);
    for (const [path, value] of Object.entries(row.values)) expect(valueAt(objects, path), path).toBe(value);
  });

  it('is not a padraoq or Pix code: parseQr names 26 as missing', () => {
    expect(() => parseQr(vectors.mpm[0]!.text)).toThrow('26: missing');
  });
});
