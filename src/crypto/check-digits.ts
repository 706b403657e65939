/**
 * Check digits: Luhn (ISO/IEC 7812-1, card numbers), CPF and CNPJ (Receita Federal, modulus 11), including the
 * alphanumeric CNPJ assigned from July 2026, whose characters count as their ASCII code minus 48 (A = 17).
 * Validators return booleans; the digit calculators throw CODEC_INVALID_INPUT on malformed input.
 */
import { OmniposError } from '../core/index.js';

function invalid(what: string, message: string): never {
  throw new OmniposError('CODEC_INVALID_INPUT', `${what}: ${message}`, { what });
}

/** The Luhn check digit to append to `digits`. */
export function luhnCheckDigit(digits: string): number {
  if (typeof digits !== 'string' || !/^\d+$/.test(digits)) invalid('Luhn', 'expected decimal digits');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether a number (at least 2 digits) ends in its Luhn check digit. */
export function isLuhnValid(number: string): boolean {
  if (typeof number !== 'string' || !/^\d{2,}$/.test(number)) return false;
  return luhnCheckDigit(number.slice(0, -1)) === number.charCodeAt(number.length - 1) - 48;
}

function mod11(values: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]! * weights[i]!;
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

const CPF_W1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_W2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];

/** Strips the usual punctuation (`.`, `-`, `/`, spaces) of a CPF or CNPJ. */
export function stripDocument(text: string): string {
  return typeof text === 'string' ? text.replace(/[.\-/\s]/g, '').toUpperCase() : '';
}

/** The two check digits of the 9-digit CPF base, as a string. */
export function cpfCheckDigits(base: string): string {
  const b = stripDocument(base);
  if (!/^\d{9}$/.test(b)) invalid('CPF', 'expected 9 digits before the check digits');
  const v = [...b].map((c) => c.charCodeAt(0) - 48);
  const d1 = mod11(v, CPF_W1);
  const d2 = mod11([...v, d1], CPF_W2);
  return `${d1}${d2}`;
}

/** Whether a CPF (11 digits, punctuation allowed) is valid; repeated-digit numbers such as 111.111.111-11 are not. */
export function isValidCpf(cpf: string): boolean {
  const c = stripDocument(cpf);
  if (!/^\d{11}$/.test(c) || /^(\d)\1{10}$/.test(c)) return false;
  return cpfCheckDigits(c.slice(0, 9)) === c.slice(9);
}

const CNPJ_W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** The two check digits of a 12-character CNPJ base (digits, or from July 2026 digits and upper-case letters). */
export function cnpjCheckDigits(base: string): string {
  const b = stripDocument(base);
  if (!/^[0-9A-Z]{12}$/.test(b)) invalid('CNPJ', 'expected 12 letters or digits before the check digits');
  const v = [...b].map((c) => c.charCodeAt(0) - 48);
  const d1 = mod11(v, CNPJ_W1);
  const d2 = mod11([...v, d1], CNPJ_W2);
  return `${d1}${d2}`;
}

/** Whether a CNPJ (numeric or alphanumeric, punctuation allowed; check digits always numeric) is valid. */
export function isValidCnpj(cnpj: string): boolean {
  const c = stripDocument(cnpj);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(c) || /^(.)\1{13}$/.test(c)) return false;
  return cnpjCheckDigits(c.slice(0, 12)) === c.slice(12);
}

/** Whether a document is a valid CPF (11 characters) or CNPJ (14). */
export function isValidDocument(document: string): boolean {
  const d = stripDocument(document);
  return d.length === 11 ? isValidCpf(d) : d.length === 14 ? isValidCnpj(d) : false;
}
