import { describe, expect, it } from 'vitest';
import { saleRequest, type TerminalIdentity } from '../../../../src/acquirer/omni/sale.js';
import { loadConfig, DEFAULT_CONFIG_PATH } from '../../../../src/config/index.js';
import type { SaleOrder } from '../../../../src/engine/ports.js';
import { saleIdentity } from '../../../../src/main/sale-identity.js';
import { readFileSync } from 'node:fs';
import { writeConfigWithSecret } from '../../../helpers/config.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

const tempDir = useTempDirs();

/**
 * The manual's own example of the node (Conecta pt page,
 * _i18n/pt/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md lines 2196-2210, at a5c3ddc0a):
 * "Para operação de Subadquirente é obrigatório o envio dos dados indicados no objeto
 * PaymentFacilitator" (line 2154).
 */
const MANUAL_EXAMPLE = {
  EstablishmentCode: '1234567890',
  TerminalAcquirerId: '12345678',
  SubEstablishment: {
    EstablishmentCode: '10084487',
    Mcc: '8999',
    Address: 'Alameda Xingu',
    City: 'São Paulo',
    State: 'SP',
    PostalCode: '06455030',
    PhoneNumber: '1198080202011',
    CountryCode: '076',
    DocumentType: 'Cpf',
    DocumentNumber: '08470483064',
  },
};
const CONFIGURED = {
  establishmentCode: '1234567890',
  terminalAcquirerId: '12345678',
  subEstablishment: {
    establishmentCode: '10084487',
    mcc: '8999',
    address: 'Alameda Xingu',
    city: 'São Paulo',
    state: 'SP',
    postalCode: '06455030',
    phoneNumber: '1198080202011',
    documentType: 'Cpf',
    documentNumber: '08470483064',
  },
};

const order: SaleOrder = {
  merchantOrderId: '263290010000001',
  request: { amount: 1300, method: 'debit', installments: 1, interest: 'ByMerchant', confirmation: 'auto' },
  summary: {
    maskedPan: '476173******0060',
    inputMode: 'Emv',
    chip: true,
    isFallback: false,
    authenticationMethod: 'NoPassword',
    productId: 1,
    brandId: 1,
    issuerId: 1501,
    expiry: '0730',
  },
  card: { kind: 'emv', data: '00', ksn: 'FFFFF99995C18C80008A', iv: '0000000000000000', isTlv: true } as never,
  paymentDateTime: new Date('2026-11-25T12:00:00Z'),
};

function terminalOf(paymentFacilitator?: unknown): TerminalIdentity {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as Record<string, any>;
  if (paymentFacilitator) config.terminal.paymentFacilitator = paymentFacilitator;
  const values = loadConfig({ path: writeConfigWithSecret(tempDir(), config), env: {} }).values;
  return saleIdentity(values.terminal, () => undefined);
}

/** Defect 4 (issue 29): PaymentFacilitator was sent nowhere on cfef2df. */
describe("the sale's PaymentFacilitator (terminal.paymentFacilitator)", () => {
  it("is sent, field for field as the manual's example, when the merchant has it configured", () => {
    const sent = saleRequest(order, terminalOf(CONFIGURED)).Payment as Record<string, unknown>;
    expect(sent.PaymentFacilitator).toEqual(MANUAL_EXAMPLE);
  });

  it('is absent when not configured', () => {
    expect(saleRequest(order, terminalOf()).Payment).not.toHaveProperty('PaymentFacilitator');
  });

  it("a block that breaks the manual's sizes is refused by the configuration, naming the field", () => {
    const bad = { ...CONFIGURED, subEstablishment: { ...CONFIGURED.subEstablishment, mcc: '89990' } };
    expect(() => terminalOf(bad)).toThrow(/terminal\.paymentFacilitator\.subEstablishment\.mcc/);
  });
});
