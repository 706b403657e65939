import { describe, expect, it } from 'vitest';
import { isAns, toAns } from '../../../src/qr/index.js';

describe('toAns: names and cities to the ANS set (20h-7Eh)', () => {
  // Brazilian municipality names (IBGE) and merchant names with the letters they carry.
  it.each([
    ['São Paulo', 'SAO PAULO'],
    ['Ribeirão Preto', 'RIBEIRAO PRETO'],
    ['Florianópolis', 'FLORIANOPOLIS'],
    ['Mogi-Guaçu', 'MOGI-GUACU'],
    ['Açaí & Cia.', 'ACAI & CIA.'],
    ['  Pão  de\tAçúcar \n', 'PAO DE ACUCAR'],
    ['Straße', 'STRASSE'],
    ['Œuvre Ølstue', 'OEUVRE OLSTUE'],
    ['Ｆｕｌｌｗｉｄｔｈ', 'FULLWIDTH'],
    ['Nº 1 Lanches', 'NO 1 LANCHES'],
    ['Café ☕ 🍞', 'CAFE'],
  ])('%j → %j', (input, out) => {
    expect(toAns(input)).toBe(out);
    expect(isAns(toAns(input))).toBe(true);
  });

  it('cuts to the size and drops a trailing space', () => {
    expect(toAns('Padaria e Confeitaria São João da Barra', 25)).toBe('PADARIA E CONFEITARIA SAO');
    expect(toAns('São José dos Campos', 15)).toBe('SAO JOSE DOS CA');
    expect(toAns('Rio de Janeiro X', 15)).toBe('RIO DE JANEIRO');
  });

  it('keeps case on request (Pix keeps it)', () => {
    expect(toAns('Fulano de Tál', 25, { upper: false })).toBe('Fulano de Tal');
  });

  // Text already in ANS skips the decomposition (issue 37): spaces at the ends or doubled still go, case still rises.
  it.each([
    ['Thales Ogliari', 'THALES OGLIARI', 'Thales Ogliari'],
    [' Sao Paulo', 'SAO PAULO', 'Sao Paulo'],
    ['Sao Paulo ', 'SAO PAULO', 'Sao Paulo'],
    ['Sao  Paulo', 'SAO PAULO', 'Sao Paulo'],
    [' ', '', ''],
    ['', '', ''],
    ['a~b{c}', 'A~B{C}', 'a~b{c}'],
  ])('plain ASCII %j → %j, kept case %j', (input, upper, kept) => {
    expect(toAns(input)).toBe(upper);
    expect(toAns(input, Infinity, { upper: false })).toBe(kept);
  });
});
