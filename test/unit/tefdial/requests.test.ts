/**
 * What a CRT asks for, read from its fields. The values of `731-000` (card type) and `732-000`
 * (financing) are PayGo's TEF Dial tables (paygodev.readme.io, "Detalhamento dos campos"), as the
 * ACBr project's PayGo TEF Dial client also reads them (github.com/frones/ACBr,
 * Fontes/ACBrTEFD/ACBrTEFDPayGo.pas, `ConteudoToProperty`): 731-000 0 any, 1 credit, 2 debit,
 * 3 voucher; 732-000 0 any, 1 à vista, 2 by the issuer, 3 by the merchant, 4 and 5 post-dated.
 */
import { describe, expect, it } from 'vitest';
import { parseTefDial } from '../../../src/tefdial/codec.js';
import { RequestFieldError, saleRequest } from '../../../src/tefdial/requests.js';

const crt = (extra: [string, string][]): ReadonlyMap<string, string> =>
  new Map<string, string>([['000-000', 'CRT'], ['001-000', '1'], ['003-000', '1000'], ...extra]);

describe('the fields of a CRT', () => {
  it("PayGo's published sale request: credit, 3 installments, the merchant's financing (732-000 00: not said)", () => {
    // paygodev.readme.io "Exemplos de arquivos", "Solicitação de venda": the fields a sale is decided on.
    const text = [
      '000-000 = CRT',
      '001-000 = 34430576',
      '002-000 = 223546',
      '003-000 = 10000',
      '004-000 = 0',
      '018-000 = 03',
      '731-000 = 01',
      '732-000 = 00',
      '999-999 = 0',
    ];
    const req = parseTefDial(Buffer.from(text.map((l) => `${l}\r\n`).join(''), 'latin1'));
    expect(saleRequest(req)).toMatchObject({
      amount: 10000,
      method: 'credit',
      installments: 3,
      interest: 'ByMerchant',
    });
  });

  it.each([
    [undefined, 'credit'],
    ['0', 'credit'],
    ['1', 'credit'],
    ['2', 'debit'],
    ['3', 'voucher'],
    ['03', 'voucher'],
  ])('731-000 %s is a %s sale', (value, method) => {
    expect(saleRequest(crt(value === undefined ? [] : [['731-000', value]]))).toMatchObject({ method });
  });

  it('731-000 4 is no card type of the table: refused by name', () => {
    expect(() => saleRequest(crt([['731-000', '4']]))).toThrow(RequestFieldError);
    expect(() => saleRequest(crt([['731-000', '4']]))).toThrow(/731-000/);
  });

  it.each([
    ['0', 'ByMerchant'],
    ['2', 'ByIssuer'],
    ['3', 'ByMerchant'],
  ])('732-000 %s with installments: %s', (value, interest) => {
    expect(
      saleRequest(
        crt([
          ['018-000', '3'],
          ['732-000', value],
        ]),
      ),
    ).toMatchObject({ installments: 3, interest });
  });

  it.each(['4', '5', '6'])('732-000 %s (post-dated, or no value of the table) is refused', (value) => {
    expect(() => saleRequest(crt([['732-000', value]]))).toThrow(/732-000/);
  });

  it('732-000 1 (à vista) with installments is a contradiction, refused', () => {
    expect(() =>
      saleRequest(
        crt([
          ['018-000', '3'],
          ['732-000', '1'],
        ]),
      ),
    ).toThrow(/732-000/);
    expect(saleRequest(crt([['732-000', '1']]))).toMatchObject({ installments: 1 });
  });
});
