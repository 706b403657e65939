import { describe, expect, it } from 'vitest';
import { hostAuthorization } from '../../../../src/acquirer/omni/authorization.js';

/**
 * The query's answer as the manual publishes it (DeveloperCielo/developercielo.github.io a5c3ddc0a,
 * `_i18n/pt/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md` 7714-7893, `GET
 * /1/physicalSales/MerchantOrderId/{id}`), cut to the members read: `CreditCard.BrandId` 1, the slip's
 * `Receipt.Nsu` 123456 and `Receipt.AuthorizationCode` 123456, printed as numbers.
 */
const PUBLISHED_QUERY = {
  MerchantOrderId: '20180204',
  Customer: { Name: '[Guest]' },
  Payment: {
    Installments: 1,
    CreditCard: { ExpirationDate: '12/2020', BrandId: 1, IssuerId: 2, InputMode: 'Emv' },
    Status: 2,
    PaymentId: 'f15889ea-5719-4e1a-a2da-f4e50d5bd702',
    ReceiptInformation: [
      { Field: 'NSU', Label: 'DOC', Content: 123456 },
      { Field: 'AUTHORIZATION_CODE', Label: 'AUTORIZAÇÃO', Content: 123456 },
    ],
    Receipt: { Nsu: 123456, AuthorizationCode: 123456 },
  },
};

describe('hostAuthorization', () => {
  it("reads the manual's query example: the slip's code and NSU, the card's BrandId", () => {
    expect(hostAuthorization(PUBLISHED_QUERY)).toEqual({ authorizationCode: '123456', nsu: '123456', brandId: 1 });
  });

  it("prefers the sale's own members (Payment.AuthorizationCode, ProofOfSale), as the sale's answer has them", () => {
    expect(hostAuthorization({ Payment: { AuthorizationCode: '031581', ProofOfSale: '730025' } })).toEqual({
      authorizationCode: '031581',
      nsu: '730025',
    });
  });

  it('reads the one sale of a list, and nothing where the answer carries none of them', () => {
    expect(hostAuthorization([{ Payment: { AuthorizationCode: '1' } }])).toEqual({ authorizationCode: '1' });
    expect(hostAuthorization([{ Payment: {} }, { Payment: {} }])).toBeUndefined();
    expect(hostAuthorization({ Payment: { Status: 2, CreditCard: { BrandId: '1' } } })).toBeUndefined();
    expect(hostAuthorization('nope')).toBeUndefined();
  });
});
