/**
 * The answer's fields that are rules of their own: text in ASCII 20h–7Eh (PayGo's "Formato
 * genérico"), and the customer's and merchant's copies (`712-000`–`715-xxx`, `737-000`) only when the
 * request's `706-000` carries 8 (PayGo's "Capacidades da Automação", as ACBr's PayGo client sends it).
 */
import { describe, expect, it } from 'vitest';
import { asciiText, copyFields, hasCapability, receiptFields, SEPARATE_COPIES } from '../../../src/tefdial/answers.js';

const req = (capabilities?: string): ReadonlyMap<string, string> =>
  new Map<string, string>([
    ['000-000', 'CRT'],
    ['001-000', '1'],
    ...(capabilities === undefined ? [] : ([['706-000', capabilities]] as [string, string][])),
  ]);

describe('the answer fields', () => {
  it('writes text in ASCII: accents dropped, dashes and quotes in their ASCII forms, anything else a space', () => {
    expect(asciiText(' AMBIENTE DE TESTE — SEM VALOR')).toBe(' AMBIENTE DE TESTE - SEM VALOR');
    expect(asciiText('CRÉDITO À VISTA · TRANSAÇÃO “OK”')).toBe('CREDITO A VISTA   TRANSACAO "OK"');
    expect(receiptFields(['TRANSAÇÃO'])).toEqual([
      ['028-000', '1'],
      ['029-001', 'TRANSACAO'],
    ]);
  });

  it('reads the flag 8 of 706-000 (a sum of flags), absent or not digits: none', () => {
    expect(hasCapability(req('12'), SEPARATE_COPIES)).toBe(true);
    expect(hasCapability(req('255'), SEPARATE_COPIES)).toBe(true);
    expect(hasCapability(req('4'), SEPARATE_COPIES)).toBe(false);
    expect(hasCapability(req('3'), SEPARATE_COPIES)).toBe(false);
    expect(hasCapability(req(), SEPARATE_COPIES)).toBe(false);
    expect(hasCapability(req('x8'), SEPARATE_COPIES)).toBe(false);
  });

  it('writes both copies and 737-000 3 when asked; one copy, its own 737-000; nothing when not asked', () => {
    const copies = { customer: ['VIA CLIENTE', 'A'], merchant: ['VIA ESTABELECIMENTO'] };
    expect(copyFields(req('12'), copies)).toEqual([
      ['737-000', '3'],
      ['712-000', '2'],
      ['713-001', 'VIA CLIENTE'],
      ['713-002', 'A'],
      ['714-000', '1'],
      ['715-001', 'VIA ESTABELECIMENTO'],
    ]);
    expect(copyFields(req('8'), { merchant: ['M'] })).toEqual([
      ['737-000', '2'],
      ['714-000', '1'],
      ['715-001', 'M'],
    ]);
    expect(copyFields(req('8'), { customer: ['C'] })[0]).toEqual(['737-000', '1']);
    expect(copyFields(req('4'), copies)).toEqual([]);
    expect(copyFields(req(), copies)).toEqual([]);
  });
});
