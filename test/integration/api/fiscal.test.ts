import { describe, expect, it } from 'vitest';
import { BRANDS } from '../../../tables/initialization/brands.js';
import { ACQUIRER_CNPJ, FISCAL_BRAND_CODES, fiscalBrand, fiscalCard } from '../../../src/api/payment-fiscal.js';
import { isValidCnpj } from '../../../src/crypto/index.js';

/**
 * The NFC-e `tBand` codes, as the Manual de Orientação do Contribuinte (NF-e/NFC-e 4.00, group
 * YA `card`, field YA06 `tBand`) publishes them; every brand the initialization tables name must map.
 */
const PUBLISHED: [string, string][] = [
  ['Visa', '01'],
  ['Mastercard', '02'],
  ['American Express', '03'],
  ['Diners Club', '05'],
  ['Elo', '06'],
  ['Hipercard', '07'],
  ['Aura', '08'],
  ['Alelo', '10'],
  ['Discover', '14'],
  ['JCB', '18'],
  ['Sodexo', '23'],
  ['VR', '26'],
  ['Ticket', '27'],
];

describe('the fiscal card group', () => {
  it.each(PUBLISHED)('%s is tBand %s (MOC 4.00, YA06)', (name, code) => {
    expect(FISCAL_BRAND_CODES[name]).toBe(code);
  });

  it('every brand of the initialization tables has its own NFC-e code (none falls to 99)', () => {
    for (const b of BRANDS.values()) expect(fiscalBrand(b.brandId).code, b.name).not.toBe('99');
    expect(fiscalBrand(4)).toEqual({ code: '06', name: 'Elo' });
    expect(fiscalBrand(777)).toEqual({ code: '99' });
    expect(fiscalBrand(undefined)).toEqual({ code: '99' });
  });

  it("the acquirer's CNPJ has valid check digits", () => {
    expect(ACQUIRER_CNPJ).toMatch(/^\d{14}$/);
    expect(isValidCnpj(ACQUIRER_CNPJ)).toBe(true);
  });

  it('only an authorized sale has one', () => {
    expect(fiscalCard({ nsu: '000001', brandId: 1 })).toBeUndefined();
    expect(fiscalCard({ authorizationCode: '123456', nsu: '000042', brandId: 2 })).toEqual({
      integration: 1,
      acquirerCnpj: ACQUIRER_CNPJ,
      cardBrand: '02',
      cardBrandName: 'Mastercard',
      authorizationCode: '123456',
      nsu: '000042',
    });
  });
});
