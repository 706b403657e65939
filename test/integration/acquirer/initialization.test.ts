import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { parseInitialization } from '../../../src/initialization/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { cardNode, card, sale, startHarness, type Harness } from '../../helpers/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const MID = SANDBOX_MERCHANT.merchant.subordinatedMerchantId;
const TID = SANDBOX_MERCHANT.terminal.terminalId;

const TECHNICAL = {
  KernelEmvVersion: 'v653',
  ContactlessModuleVersion: 'v553',
  KernelPayPassVersion: '553',
  KernelContactlessPayWaveVersion: '553',
  HardwareModel: 'VIRTUAL',
  ManufacturerName: 'OMNIPOS',
  FirmwareVersion: '1.0.0',
  BasicLibVersion: '001.00 261122',
  SpecificationVersion: '2.20',
  AcquirerVersion: '001.00 261122',
  SimCardNumber: '0',
  PaymentAppVersion: '0.1.0',
  SerialNumber: 'VIRT00000001',
  PhysicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless',
  ReturnDataInfo: '00',
};

function status(e: unknown): number | undefined {
  return isOmniposError(e) ? (e.context.status as number) : undefined;
}

describe('initialization (parameters address)', () => {
  it('serves the minimal tables for the registered terminal; BIN ranges cover every test card', async () => {
    const t = await h.acquirer.omni.initialization(MID, TID);
    expect(t).toMatchObject({ TerminalId: TID, InitializationVersion: expect.any(Number) });
    expect(String(t.InitializationVersion)).toMatch(/^\d{13}$/);
    const bins = t.Bins as { InitialBin: string; FinalBin: string }[];
    for (const c of TEST_CARDS) {
      expect(
        bins.some(
          (b) => c.pan.slice(0, b.InitialBin.length) >= b.InitialBin && c.pan.slice(0, b.FinalBin.length) <= b.FinalBin,
        ),
      ).toBe(true);
    }
    expect(
      (t.Emv as { NatEmvConctactRiskFloorLimit: number }[]).every((e) => e.NatEmvConctactRiskFloorLimit === 0),
    ).toBe(true);
  });

  it("the served tables pass the terminal's own initialization schema", async () => {
    const t = await h.acquirer.omni.initialization(MID, TID);
    const parsed = parseInitialization(t);
    expect(parsed.bins.length).toBeGreaterThan(0);
    expect(parsed.version).toBe(String(t.InitializationVersion));
  });

  it('an unknown terminal, or one ending 0404, is TERMINAL INEXISTENTE (404)', async () => {
    expect(status(await h.acquirer.omni.initialization(MID, '99990404').catch((e: unknown) => e))).toBe(404);
    expect(status(await h.acquirer.omni.initialization(MID, '12345678').catch((e: unknown) => e))).toBe(404);
  });

  it('POST /initialization records TechnicalParameter and names a missing member', async () => {
    const ok = await h.acquirer.omni.initializationTechnical({
      SubordinatedMerchantId: MID,
      TerminalId: TID,
      TechnicalParameter: TECHNICAL,
    });
    expect(ok.TerminalId).toBe(TID);
    const { SerialNumber: _s, ...missing } = TECHNICAL;
    void _s;
    const err = await h.acquirer.omni
      .initializationTechnical({ SubordinatedMerchantId: MID, TerminalId: TID, TechnicalParameter: missing })
      .catch((e: unknown) => e);
    expect(status(err)).toBe(400);
    expect(String((err as { context: { returnMessage: string } }).context.returnMessage)).toContain(
      'TechnicalParameter.SerialNumber: is required',
    );
  });
});

describe('merchant and terminal registration', () => {
  const merchant = {
    Owner: {
      Name: 'Dona Teste',
      Email: 'dona@example.com',
      PhoneNumber: '11900000000',
      MessengerPhone: '11900000000',
      Gender: 'Female',
    },
    Address: { ZipCode: '01310100', Street: 'Av Paulista', Number: '1000', Complement: '' },
    TradeName: 'Loja Dois',
    CompanyName: 'Loja Dois Ltda',
    Email: 'loja@example.com',
    PhoneNumber: '1130000000',
    Mcc: 5411,
    DocumentNumber: '11222333000181',
    DocumentType: 'Cnpj',
  };

  it('creates, reads and changes a merchant; registers a terminal that can then initialize and sell', async () => {
    const created = await h.acquirer.omni.createMerchant(merchant);
    const id = created.SubordinatedMerchantId as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await expect(h.acquirer.omni.getMerchant(id)).resolves.toMatchObject({ Merchant: { TradeName: 'Loja Dois' } });
    const { Owner: _o, ...change } = merchant;
    void _o;
    await expect(h.acquirer.omni.updateMerchant(id, { ...change, TradeName: 'Loja Dois B' })).resolves.toMatchObject({
      TradeName: 'Loja Dois B',
    });
    const t = await h.acquirer.omni.createTerminal({
      SubordinatedMerchantId: id,
      CommunicationType: 'PERFIL_PADRAO',
      SkipEquipment: true,
      TerminalId: '77001234',
    });
    expect(t).toMatchObject({
      Terminal: { TerminalId: '77001234', AcquirerIds: [4] },
      Activation: { Token: expect.any(String) },
    });
    await expect(h.acquirer.omni.initialization(id, '77001234')).resolves.toMatchObject({ TerminalId: '77001234' });
    const req = sale(1000, { card: cardNode(card(0)) });
    req.Payment.SubordinatedMerchantId = id;
    req.Payment.PinPadInformation.TerminalId = '77001234';
    await expect(h.acquirer.omni.createSale(req)).resolves.toMatchObject({ Payment: { Status: 2 } });
  });

  it('validates every field: check digits, formats, missing members, each named', async () => {
    const err = await h.acquirer.omni
      .createMerchant({ ...merchant, DocumentNumber: '11222333000180', Email: 'nope', Mcc: 'x', Owner: { Name: 'A' } })
      .catch((e: unknown) => e);
    expect(status(err)).toBe(400);
    const msg = String((err as { context: { returnMessage: string } }).context.returnMessage);
    for (const part of [
      'DocumentNumber: Dígito verificador inválido',
      'Email: must be an email address',
      'Mcc: must be a whole number',
      'Owner.Email: is required',
      'Owner.PhoneNumber: is required',
    ]) {
      expect(msg).toContain(part);
    }
    const t = await h.acquirer.omni
      .createTerminal({ SubordinatedMerchantId: MID, CommunicationType: 'PERFIL_PADRAO', TerminalId: '123' })
      .catch((e: unknown) => e);
    const tmsg = String((t as { context: { returnMessage: string } }).context.returnMessage);
    expect(tmsg).toContain('TerminalId: must be 8 letters or digits');
    expect(tmsg).toContain('EquipmentModel: is required');
  });

  it('registration needs the registration scope; the transactional token gets 403', async () => {
    const token = await h.acquirer.tokens.token('transactional');
    const r = await h.acquirer.http.send(
      'merchantGet',
      { SubordinatedMerchantId: MID },
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(r.status).toBe(403);
  });
});
