import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  cnpjCheckDigits,
  cpfCheckDigits,
  isLuhnValid,
  isValidCnpj,
  isValidCpf,
  isValidDocument,
  luhnCheckDigit,
} from '../../../src/crypto/index.js';

const RUNS = 1000;
function seed(name: string): number {
  const s = Date.now() % 2 ** 31;
  console.log(`fast-check seed for "${name}": ${s}`);
  return s;
}

describe('Luhn', () => {
  it.each([
    ['79927398713', 'Wikipedia, "Luhn algorithm" worked example'],
    ['4012345678909', 'ANSI X9.24-1:2009 A.4 test PAN'],
    ['4111111111111111', 'Visa test card published by card schemes and acquirer sandboxes'],
    ['5555555555554444', 'Mastercard test card published by acquirer sandboxes'],
  ])('%s is valid (%s)', (pan) => {
    expect(isLuhnValid(pan)).toBe(true);
    expect(luhnCheckDigit(pan.slice(0, -1))).toBe(Number(pan.slice(-1)));
  });

  it('any single-digit change breaks a valid number', () => {
    const s = seed('luhn single digit error');
    fc.assert(
      fc.property(fc.stringMatching(/^\d{7,18}$/), fc.nat(), fc.integer({ min: 1, max: 9 }), (body, at, delta) => {
        const full = body + String(luhnCheckDigit(body));
        expect(isLuhnValid(full)).toBe(true);
        const i = at % full.length;
        const changed = full.slice(0, i) + String((Number(full[i]) + delta) % 10) + full.slice(i + 1);
        expect(isLuhnValid(changed)).toBe(false);
      }),
      { numRuns: RUNS, seed: s },
    );
  });

  it('refuses non-digits with CODEC_INVALID_INPUT and never validates them', () => {
    expect(() => luhnCheckDigit('12a4')).toThrow(expect.objectContaining({ code: 'CODEC_INVALID_INPUT' }));
    expect(isLuhnValid('7992739871x')).toBe(false);
    expect(isLuhnValid('')).toBe(false);
  });
});

describe('CPF and CNPJ', () => {
  it.each([
    ['111.444.777-35', 'Wikipedia (pt), "Cadastro de Pessoas Físicas", algorithm example'],
    ['529.982.247-25', 'widely published CPF validation example'],
  ])('CPF %s is valid (%s)', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
    expect(isValidDocument(cpf)).toBe(true);
    expect(cpfCheckDigits(cpf.slice(0, 11))).toBe(cpf.slice(-2));
  });

  it.each([
    ['11.222.333/0001-81', 'Wikipedia (pt), "Cadastro Nacional da Pessoa Jurídica", example'],
    ['44.038.188/0001-32', 'masterdaweb.com, "Algoritmo para generar CNPJ", worked example'],
    [
      '12.ABC.345/01DE-35',
      'Receita Federal / SERPRO, "Cálculo dos dígitos verificadores de CNPJ alfanumérico" (from July 2026)',
    ],
  ])('CNPJ %s is valid (%s)', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
    expect(isValidDocument(cnpj)).toBe(true);
    expect(cnpjCheckDigits(cnpj.slice(0, 15))).toBe(cnpj.slice(-2));
  });

  it.each(['111.444.777-36', '111.111.111-11', '000.000.000-00', '111.444.777-3', '11144477735a'])(
    'CPF %s is invalid',
    (cpf) => {
      expect(isValidCpf(cpf)).toBe(false);
    },
  );

  it.each([
    '11.222.333/0001-82',
    '00.000.000/0000-00',
    '12.ABC.345/01DE-36',
    '12.ABC.345/01DE-3A',
    '12.abc.345/01de-35x',
  ])('CNPJ %s is invalid', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  it('lower-case letters in an alphanumeric CNPJ are read as upper-case', () => {
    expect(isValidCnpj('12.abc.345/01de-35')).toBe(true);
  });

  it('property: a computed alphanumeric CNPJ validates, and changing either check digit breaks it', () => {
    const s = seed('cnpj');
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9A-Z]{12}$/),
        fc.integer({ min: 12, max: 13 }),
        fc.integer({ min: 1, max: 9 }),
        (base, at, delta) => {
          const full = base + cnpjCheckDigits(base);
          fc.pre(!/^(.)\1{13}$/.test(full));
          expect(isValidCnpj(full)).toBe(true);
          const changed = full.slice(0, at) + String((Number(full[at]) + delta) % 10) + full.slice(at + 1);
          expect(isValidCnpj(changed)).toBe(false);
        },
      ),
      { numRuns: RUNS, seed: s },
    );
  });

  it('property: any text into the validators gives a boolean; the digit calculators give digits or CODEC_INVALID_INPUT', () => {
    const s = seed('documents fuzz');
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (text) => {
        expect(typeof isValidDocument(text)).toBe('boolean');
        for (const f of [cpfCheckDigits, cnpjCheckDigits]) {
          try {
            expect(f(text)).toMatch(/^\d\d$/);
          } catch (e) {
            expect(isOmniposError(e, 'CODEC_INVALID_INPUT')).toBe(true);
          }
        }
      }),
      { numRuns: RUNS, seed: s },
    );
  });
});
