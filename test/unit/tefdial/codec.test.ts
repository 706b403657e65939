import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTefDial, TefDialFormatError, writeTefDial } from '../../../src/tefdial/codec.js';

const crlf = (lines: string[]): Buffer => Buffer.from(lines.map((l) => `${l}\r\n`).join(''), 'latin1');

describe('the TEF Dial codec', () => {
  it("reads PayGo's published sale request (paygodev.readme.io, 'Exemplos de arquivos')", () => {
    const f = parseTefDial(
      crlf([
        '000-000 = CRT',
        '001-000 = 34430576',
        '002-000 = 223546',
        '003-000 = 10000',
        '004-000 = 0',
        '018-000 = 03',
        '999-999 = 0',
      ]),
    );
    expect(f.get('000-000')).toBe('CRT');
    expect(f.get('001-000')).toBe('34430576');
    expect(f.get('003-000')).toBe('10000');
    expect(f.has('999-999')).toBe(false);
  });

  it('reads a receipt line without its quotes and keeps its spaces', () => {
    const f = parseTefDial(crlf(['029-001 = "   *** PAYGO ***   "', '999-999 = 0']));
    expect(f.get('029-001')).toBe('   *** PAYGO ***   ');
  });

  it('reads ISO-8859-1 accents as the PDV wrote them', () => {
    const f = parseTefDial(
      Buffer.concat([
        Buffer.from('030-000 = OPERA', 'latin1'),
        Buffer.from([0xc7, 0xc3]),
        Buffer.from('O\r\n999-999 = 0\r\n'),
      ]),
    );
    expect(f.get('030-000')).toBe('OPERAÇÃO');
  });

  it('accepts a last line without its CR LF', () => {
    expect(parseTefDial(Buffer.from('000-000 = ATV\r\n001-000 = 1\r\n999-999 = 0', 'latin1')).get('000-000')).toBe(
      'ATV',
    );
  });

  const problem = (bytes: Buffer): string => {
    try {
      parseTefDial(bytes);
    } catch (e) {
      if (e instanceof TefDialFormatError) return e.problem;
      throw e;
    }
    return 'none';
  };

  it('refuses each malformed file with its typed problem', () => {
    expect(problem(crlf(['000-000 = CRT', '001-000 = 1']))).toBe('no-terminator');
    expect(problem(crlf(['000-000 = CRT', '001-000 = 1', '001-000 = 2', '999-999 = 0']))).toBe('duplicate');
    expect(problem(crlf(['000-000=CRT', '999-999 = 0']))).toBe('malformed');
    expect(problem(Buffer.from('000-000 = CRT\n999-999 = 0\n'))).toBe('malformed');
    expect(problem(crlf(['000-000 = CRT', '999-999 = 0', '001-000 = 1']))).toBe('malformed');
    expect(problem(Buffer.from('\ufeff000-000 = CRT\r\n999-999 = 0\r\n', 'utf16le'))).toBe('encoding');
    expect(problem(Buffer.from('\ufeff000-000 = CRT\r\n999-999 = 0\r\n', 'utf8'))).toBe('encoding');
    expect(problem(Buffer.from('000-000 = C\tRT\r\n999-999 = 0\r\n'))).toBe('encoding');
    expect(problem(Buffer.alloc(0))).toBe('empty');
  });

  it('writes CR LF lines, quotes receipt lines and ends with 999-999 = 0', () => {
    const bytes = writeTefDial([
      ['000-000', 'CRT'],
      ['029-001', ' VIA CLIENTE '],
      ['030-000', 'TRANSAÇÃO APROVADA'],
    ]);
    expect(bytes.toString('latin1')).toBe(
      '000-000 = CRT\r\n029-001 = " VIA CLIENTE "\r\n030-000 = TRANSAÇÃO APROVADA\r\n999-999 = 0\r\n',
    );
    expect(bytes.includes(Buffer.from([0xc7]))).toBe(true);
  });

  const key = fc
    .tuple(fc.integer({ min: 0, max: 998 }), fc.integer({ min: 0, max: 999 }))
    .map(([a, b]) => `${String(a).padStart(3, '0')}-${String(b).padStart(3, '0')}`);
  const latin1 = fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c < 0x7f || c >= 0xa0)
      .map((c) => String.fromCharCode(c)),
  });

  it('gives back what it wrote (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(key, latin1), { selector: ([k]) => k, maxLength: 40 }), (fields) => {
        const read = parseTefDial(writeTefDial(fields));
        expect([...read.entries()]).toEqual(fields);
      }),
      { numRuns: 500 },
    );
  });

  it('throws nothing but its typed error on any bytes (fuzz)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          parseTefDial(bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(TefDialFormatError);
        }
      }),
      { numRuns: 2000 },
    );
    // Mutations of a valid file: a byte changed, dropped or repeated.
    const valid = writeTefDial([
      ['000-000', 'CRT'],
      ['001-000', '12'],
      ['003-000', '100'],
    ]);
    fc.assert(
      fc.property(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 }), (at, byte) => {
        const mutated = Buffer.from(valid);
        mutated[at] = byte;
        try {
          parseTefDial(mutated);
        } catch (e) {
          expect(e).toBeInstanceOf(TefDialFormatError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
