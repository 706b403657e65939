import { afterEach, describe, expect, it } from 'vitest';
import { OmniSaleAdapter, cardNode, saleRequest, type TerminalIdentity } from '../../../../src/acquirer/omni/sale.js';
import type { EncryptedCard, SaleOrder } from '../../../../src/engine/ports.js';
import type { CardSummary } from '../../../../src/engine/sale/types.js';
import { saleIdentity } from '../../../../src/main/sale-identity.js';
import { loopbackAcquirer, json, loopback } from '../../../helpers/loopback.js';

/**
 * The card node of the sale as the manual's request tables mark it (Conecta pt page,
 * _i18n/pt/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md): ExpirationDate MM/yyyy "Sim"
 * for every mode (lines 1426, 3365, 3481), SecurityCodeStatus "Sim" on the typed sale (1427),
 * BrandId/IssuerId "Sim" (3366-3367), TrackOneData "Sim" on the stripe sale (3370, example
 * 3437-3446 with EncryptedCardData.TrackOneDataKSN), and the InputMode enum "Typed, MagStripe,
 * Emv, ContactlessEmv" (1431, 3368).
 */

const TERMINAL: TerminalIdentity = {
  subordinatedMerchantId: '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f60718',
  terminalId: '42004201',
  pinpadSerial: 'VPP0000000001',
  physicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless',
  softDescriptor: 'PADARIA SOL',
};

const T2: EncryptedCard = {
  kind: 'track2',
  data: '1B70490711F4B7F8441F1FCDAC07366DB66A9512533B7A68',
  ksn: 'FFFFF99995C18C80008A',
  iv: '0000000000000000',
  isTlv: false,
};
const T1 = { data: '4341FF573858F8A70D98D57FA648C8CC8E9DDA85EE6579E4D49A5DD8D853F143', ksn: 'FFFFF99995C18C800089' };

function summary(over: Partial<CardSummary>): CardSummary {
  return {
    maskedPan: '476173******0060',
    inputMode: 'Emv',
    chip: true,
    isFallback: false,
    authenticationMethod: 'NoPassword',
    productId: 1,
    brandId: 1,
    issuerId: 1501,
    expiry: '0730',
    ...over,
  };
}

function order(s: CardSummary, card: EncryptedCard): SaleOrder {
  return {
    merchantOrderId: '263290010000001',
    request: { amount: 1300, method: 'debit', installments: 1, interest: 'ByMerchant', confirmation: 'auto' },
    summary: s,
    card,
    paymentDateTime: new Date('2026-11-25T12:00:00Z'),
  };
}

const VALID_MODES = ['Typed', 'MagStripe', 'Emv', 'ContactlessEmv'];

describe('the sale request carries every field the manual marks required', () => {
  it('ExpirationDate MM/yyyy for chip, stripe, contactless and typed alike (the old code sent it on typed only)', () => {
    for (const inputMode of ['Emv', 'MagStripe', 'ContactlessEmv', 'ContactlessMagStripe', 'Typed'] as const) {
      const card = inputMode === 'Typed' ? { ...T2, kind: 'pan' as const } : T2;
      const node = cardNode({ summary: summary({ inputMode }) }, card);
      expect(node.ExpirationDate, inputMode).toBe('07/2030');
      expect(node.ExpirationDate).toMatch(/^(0[1-9]|1[0-2])\/\d{4}$/);
    }
  });

  it('SecurityCodeStatus on typed entry only, with a value of the manual enum', () => {
    const typed = cardNode({ summary: summary({ inputMode: 'Typed', chip: false }) }, { ...T2, kind: 'pan' });
    expect(['Collected', 'Unreadable', 'Nonexistent']).toContain(typed.SecurityCodeStatus);
    expect(cardNode({ summary: summary({}) }, T2).SecurityCodeStatus).toBeUndefined();
  });

  it('TrackOneData with TrackOneDataKSN beside the track 2 on a stripe read of a card with a track 1, as the manual example shows', () => {
    const node = cardNode({ summary: summary({ inputMode: 'MagStripe', chip: false }) }, { ...T2, track1: T1 });
    expect(node).toMatchObject({ InputMode: 'MagStripe', TrackOneData: T1.data, TrackTwoData: T2.data });
    expect(node.EncryptedCardData).toEqual({
      EncryptionType: 'Dukpt3DesCBC',
      InitializationVector: T2.iv,
      TrackOneDataKSN: T1.ksn,
      TrackTwoDataKSN: T2.ksn,
      IsDataInTLVFormat: false,
    });
    // A card without track 1: no empty member.
    expect(cardNode({ summary: summary({ inputMode: 'MagStripe', chip: false }) }, T2)).not.toHaveProperty(
      'TrackOneData',
    );
  });

  it('a chip read goes as TrackTwoData + EncryptedCardData (Dukpt3DesCBC, IV, TrackTwoDataKSN), a typed one as CardNumber + CardNumberKSN', () => {
    // What GTK and EBX return (hex ciphertext, KSN, IV) named for the host here, not in the pinpad driver.
    const chip = cardNode({ summary: summary({}) }, T2);
    expect(chip).toMatchObject({ TrackTwoData: T2.data });
    expect(chip).not.toHaveProperty('CardNumber');
    expect(chip.EncryptedCardData).toEqual({
      EncryptionType: 'Dukpt3DesCBC',
      InitializationVector: T2.iv,
      TrackTwoDataKSN: T2.ksn,
      IsDataInTLVFormat: false,
    });
    const typed = cardNode({ summary: summary({ inputMode: 'Typed', chip: false }) }, { ...T2, kind: 'pan' });
    expect(typed).toMatchObject({ CardNumber: T2.data });
    expect(typed).not.toHaveProperty('TrackTwoData');
    expect(typed.EncryptedCardData).toEqual({
      EncryptionType: 'Dukpt3DesCBC',
      InitializationVector: T2.iv,
      CardNumberKSN: T2.ksn,
      IsDataInTLVFormat: false,
    });
  });

  it('a contactless read in stripe mode goes with an InputMode the enum accepts (the old code sent ContactlessMagStripe)', () => {
    const node = cardNode(
      { summary: summary({ inputMode: 'ContactlessMagStripe', chip: false }) },
      { ...T2, track1: T1 },
    );
    expect(VALID_MODES).toContain(node.InputMode);
    expect(node.InputMode).toBe('MagStripe');
    expect(node.TrackOneData).toBe(T1.data);
  });

  it('BrandId and IssuerId always; without them (or without an expiry) the request is not built', () => {
    expect(cardNode({ summary: summary({}) }, T2)).toMatchObject({ BrandId: 1, IssuerId: 1501 });
    expect(() => cardNode({ summary: summary({ brandId: undefined }) }, T2)).toThrow(/BrandId/);
    expect(() => cardNode({ summary: summary({ issuerId: undefined }) }, T2)).toThrow(/IssuerId/);
    expect(() => cardNode({ summary: summary({ expiry: undefined }) }, T2)).toThrow(/ExpirationDate/);
  });

  it('SoftDescriptor is the merchant’s configured text, not OMNIPOS; a 14-character or accented one is refused before sending', () => {
    const id = saleIdentity(
      {
        subordinatedMerchantId: TERMINAL.subordinatedMerchantId,
        terminalId: TERMINAL.terminalId,
        softDescriptor: 'PADARIA SOL',
      },
      () => undefined,
    );
    expect(saleRequest(order(summary({}), T2), id).Payment.SoftDescriptor).toBe('PADARIA SOL');
    expect(() => saleRequest(order(summary({}), T2), { ...TERMINAL, softDescriptor: 'PADARIA DO SOL' })).toThrow(
      /SoftDescriptor/,
    );
    expect(() => saleRequest(order(summary({}), T2), { ...TERMINAL, softDescriptor: 'PADARIA SÃO' })).toThrow(
      /SoftDescriptor/,
    );
  });
});

describe('over HTTP: a sale missing a required field is refused before anything is sent', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('no BrandId/IssuerId: refused locally, the host sees no request; a complete one reaches the host with every field', async () => {
    const s = await loopback((req, res) => {
      if (req.url === '/oauth2/token')
        return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 3600 });
      json(res, 201, {
        MerchantOrderId: '263290010000001',
        Payment: { PaymentId: 'p1', Status: 2, ReturnCode: '000', ConfirmationStatus: 0 },
      });
    });
    close = s.close;
    const acquirer = loopbackAcquirer(s.url, { clientId: 'cid' });
    try {
      const adapter = new OmniSaleAdapter(acquirer.omni, TERMINAL);
      const refused = await adapter.authorize(order(summary({ brandId: undefined, issuerId: undefined }), T2));
      expect(refused).toMatchObject({ kind: 'refused' });
      expect(s.seen).toHaveLength(0);
      await adapter.authorize(order(summary({ inputMode: 'MagStripe', chip: false }), { ...T2, track1: T1 }));
      const sale = s.seen.find((r) => r.url === '/1/physicalSales');
      const card = JSON.parse(sale!.body).Payment.DebitCard;
      expect(card).toMatchObject({
        InputMode: 'MagStripe',
        ExpirationDate: '07/2030',
        BrandId: 1,
        IssuerId: 1501,
        TrackOneData: T1.data,
      });
      expect(JSON.parse(sale!.body).Payment.SoftDescriptor).toBe('PADARIA SOL');
    } finally {
      await acquirer.close();
    }
  });
});
