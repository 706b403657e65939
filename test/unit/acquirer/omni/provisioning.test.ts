import { describe, expect, it } from 'vitest';
import { storeRegistration, terminalRegistration } from '../../../../src/acquirer/index.js';

/**
 * The omni side of `omnipos register`: the engine's words in, the manual's bodies out, and its answers read
 * back (src/acquirer/omni/provisioning.ts). Examples: the Conecta manual, pt page
 * (_i18n/pt/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md in the developercielo.github.io mirror).
 */
describe('omni provisioning: registration bodies and answers', () => {
  it('a terminal without equipment is the manual\'s "Criar Terminal sem Equipamento" body (lines 9892-9899)', () => {
    expect(terminalRegistration({ merchantId: '{{SubordinatedMerchantId}}', terminalId: '12345678' })).toEqual({
      SubordinatedMerchantId: '{{SubordinatedMerchantId}}',
      CommunicationType: 'PERFIL_PADRAO',
      SkipEquipment: true,
      TerminalId: '12345678',
    });
  });

  it('a terminal with equipment is the manual\'s "Criar Terminal com Equipamento" body (lines 9944-9952)', () => {
    expect(
      terminalRegistration({
        merchantId: '{{SubordinatedMerchantId}}',
        terminalId: '12345678',
        equipment: { model: 1, serial: 'abc123' },
      }),
    ).toEqual({
      SubordinatedMerchantId: '{{SubordinatedMerchantId}}',
      CommunicationType: 'PERFIL_PADRAO',
      EquipmentModel: 1,
      EquipmentSerialNumber: 'abc123',
      TerminalId: '12345678',
    });
  });

  it('the manual\'s "Consulta Loja" answer (lines 9619-9640) is read under its Merchant node', () => {
    const answer = {
      Merchant: {
        SubordinatedMerchantId: 'string',
        Owner: {
          Name: 'string',
          Email: 'string',
          PhoneNumber: 'string',
          MessengerPhone: 'string',
          DocumentNumber: 'string',
        },
        SoftDescriptor: 'description 1',
        MerchantGroup: [{ Name: 'New Merchant', SubAcquirer: 'SubAquirer', Origin: '123', Id: '123' }],
        MerchantGroupNames: ['name1', 'name2'],
      },
    };
    expect(storeRegistration(answer)).toEqual({
      merchantId: 'string',
      tradeName: undefined,
      document: undefined,
      answer: answer.Merchant,
    });
  });

  it("an answer without the Merchant node (the sandbox's POST) is the merchant itself; the document is type and number", () => {
    const r = storeRegistration({
      SubordinatedMerchantId: '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f60718',
      TradeName: 'PADARIA TESTE',
      DocumentType: 'Cnpj',
      DocumentNumber: '11444777000161',
    });
    expect(r).toMatchObject({
      merchantId: '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f60718',
      tradeName: 'PADARIA TESTE',
      document: 'Cnpj 11444777000161',
    });
  });
});
