import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { sale, startHarness, type Harness } from '../../helpers/sandbox.js';

/**
 * The sandbox host and a sub-acquirer's sale (defect 4, issue 29): "Para operação de Subadquirente
 * é obrigatório o envio dos dados indicados no objeto PaymentFacilitator" (Conecta pt page
 * 2019-07-10-cielo-conecta.md line 2154; the fields, every one "Sim", lines 2248-2259; the example,
 * lines 2196-2210). A merchant the scenario flags (`subAcquirers`) must send it; anyone who sends it
 * must send it whole.
 */
const EXAMPLE = {
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

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const withFacilitator = (node: unknown) => {
  const req = sale(1000) as unknown as { Payment: Record<string, unknown> };
  req.Payment.PaymentFacilitator = node;
  return req as unknown as ReturnType<typeof sale>;
};
const refusal = (e: unknown): string => JSON.stringify((e as { body?: unknown }).body ?? (e as Error).message);

describe('the sandbox and PaymentFacilitator', () => {
  it("refuses a flagged sub-acquirer's sale without it, naming the field; takes the manual's example", async () => {
    await h.control('POST', '/sandbox/scenario', { subAcquirers: [SANDBOX_MERCHANT.merchant.subordinatedMerchantId] });
    try {
      const refused = await h.acquirer.omni.createSale(sale(1000)).catch((e: unknown) => e);
      expect(refusal(refused)).toMatch(/PaymentFacilitator: is required for a sub-acquirer/);
      const taken = await h.acquirer.omni.createSale(withFacilitator(EXAMPLE));
      expect(taken.Payment.Status).toBe(2);
    } finally {
      await h.control('POST', '/sandbox/scenario', { subAcquirers: [] });
    }
  });

  it('refuses a PaymentFacilitator that lacks a field or breaks its size, whoever sends it', async () => {
    const { Mcc: _mcc, ...sub } = EXAMPLE.SubEstablishment;
    const missing = await h.acquirer.omni
      .createSale(withFacilitator({ ...EXAMPLE, SubEstablishment: sub }))
      .catch((e: unknown) => e);
    expect(refusal(missing)).toMatch(/PaymentFacilitator\.SubEstablishment\.Mcc: is required/);
    const long = await h.acquirer.omni
      .createSale(withFacilitator({ ...EXAMPLE, TerminalAcquirerId: '123456789' }))
      .catch((e: unknown) => e);
    expect(refusal(long)).toMatch(/PaymentFacilitator\.TerminalAcquirerId: at most 8 characters/);
  });
});
