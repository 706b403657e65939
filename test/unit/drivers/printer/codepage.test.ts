import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeText, encodeText, EscPosEncoder } from '../../../../drivers/printer/index.js';
import { findPrinterModel } from '../../../../tables/printers/index.js';
import { fcSeed, hex, SRC } from '../../../helpers/escpos-sources.js';

/** [character, CP860 byte, CP850 byte] as the Unicode mapping tables list them. */
const ROWS: [string, number, number][] = [
  ['Ç', 0x80, 0x80],
  ['é', 0x82, 0x82],
  ['â', 0x83, 0x83],
  ['ã', 0x84, 0xc6],
  ['à', 0x85, 0x85],
  ['Á', 0x86, 0xb5],
  ['ç', 0x87, 0x87],
  ['ê', 0x88, 0x88],
  ['Ê', 0x89, 0xd2],
  ['Í', 0x8b, 0xd6],
  ['Ô', 0x8c, 0xe2],
  ['Ã', 0x8e, 0xc7],
  ['Â', 0x8f, 0xb6],
  ['É', 0x90, 0x90],
  ['À', 0x91, 0xb7],
  ['ô', 0x93, 0x93],
  ['õ', 0x94, 0xe4],
  ['Ú', 0x96, 0xe9],
  ['Õ', 0x99, 0xe5],
  ['Ó', 0x9f, 0xe0],
  ['á', 0xa0, 0xa0],
  ['í', 0xa1, 0xa1],
  ['ó', 0xa2, 0xa2],
  ['ú', 0xa3, 0xa3],
  ['º', 0xa7, 0xa7],
  ['ª', 0xa6, 0xa6],
  ['°', 0xf8, 0xf8],
];

describe(`code pages (${SRC.UNICODE_CP860}, ${SRC.UNICODE_CP850})`, () => {
  it.each(ROWS)('%s is 0x%s in CP860 and CP850', (ch, b860, b850) => {
    expect([...encodeText(ch, 'cp860')]).toEqual([b860]);
    expect([...encodeText(ch, 'cp850')]).toEqual([b850]);
    expect(decodeText(Uint8Array.of(b860), 'cp860')).toBe(ch);
    expect(decodeText(Uint8Array.of(b850), 'cp850')).toBe(ch);
  });

  it('"Crédito", "Débito", "Transação", "Não" in PC860 after ESC t 3', () => {
    const bytes = new EscPosEncoder(findPrinterModel('epson-tm-t88v')!)
      .codePage('cp860')
      .text('Crédito Débito Transação Não')
      .encode();
    expect(hex(bytes)).toBe(
      '1B 74 03 43 72 82 64 69 74 6F 20 44 82 62 69 74 6F 20 54 72 61 6E 73 61 87 84 6F 20 4E 84 6F',
    );
  });

  it('decomposed accents are composed first; characters a page lacks are transliterated, never sent raw', () => {
    expect(decodeText(encodeText('Cre\u0301dito', 'cp860'), 'cp860')).toBe('Crédito');
    expect(decodeText(encodeText('AMBIENTE DE TESTE — SEM VALOR', 'cp860'), 'cp860')).toBe(
      'AMBIENTE DE TESTE - SEM VALOR',
    );
    expect(decodeText(encodeText('“ok” € ẽ 中', 'cp850'), 'cp850')).toBe('"ok" EUR e ?');
  });

  it('text can never carry a control byte (no command injection through a merchant name)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 64 }),
        fc.constantFrom('cp860' as const, 'cp850' as const),
        (s, cp) => {
          for (const b of encodeText(s, cp)) expect(b === 0x0a || b >= 0x20).toBe(true);
        },
      ),
      { numRuns: 1000, seed: fcSeed('printer code pages') },
    );
  });

  it('every character of a code page round-trips through it', () => {
    for (const cp of ['cp860', 'cp850'] as const) {
      // 0x7F (DEL) is a control byte and 0xFF a no-break space: both print as something else.
      const all = Uint8Array.from({ length: 0xfe - 0x20 + 1 }, (_, i) => i + 0x20).filter((b) => b !== 0x7f);
      expect([...encodeText(decodeText(all, cp), cp)]).toEqual([...all]);
    }
  });
});
