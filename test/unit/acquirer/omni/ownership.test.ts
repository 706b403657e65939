import { describe, expect, it } from 'vitest';
import { findOurSale, saleOwnership, type OurSale } from '../../../../src/acquirer/index.js';
import { loopbackAcquirer, json, loopback } from '../../../helpers/loopback.js';

/**
 * The manual's answer to `GET /1/physicalSales/MerchantOrderId/{id}` (Conecta pt page,
 * _i18n/pt/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md lines 7712-7760, abridged to the
 * members the check reads): MerchantOrderId "20180204", PinPadInformation.TerminalId "10000001",
 * Amount 15798, PaymentId f15889ea-…; it carries no SubordinatedMerchantId.
 */
const MANUAL_QUERY_ANSWER = {
  MerchantOrderId: '20180204',
  Payment: {
    Installments: 1,
    PinPadInformation: {
      TerminalId: '10000001',
      SerialNumber: 'ABC123',
      PhysicalCharacteristics: 'PinPadWithChipReaderWithSamModule',
      ReturnDataInfo: '00',
    },
    Amount: 15798,
    Status: 2,
    ConfirmationStatus: 0,
    PaymentId: 'f15889ea-5719-4e1a-a2da-f4e50d5bd702',
    Type: 'PhysicalDebitCard',
  },
};

const OURS: OurSale = {
  merchantOrderId: '20180204',
  terminalId: '10000001',
  subordinatedMerchantId: '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f60718',
  amount: 15798,
};

describe('is the sale found by order id ours? (one acquirer client serves many merchants)', () => {
  it('the manual’s query answer is ours when order id, terminal and amount match', () => {
    expect(saleOwnership(MANUAL_QUERY_ANSWER, OURS)).toEqual({
      ours: true,
      paymentId: 'f15889ea-5719-4e1a-a2da-f4e50d5bd702',
    });
  });

  it('another merchant’s terminal, another amount, another merchant named, another order id: not ours, never to be undone', () => {
    expect(saleOwnership(MANUAL_QUERY_ANSWER, { ...OURS, terminalId: '42004201' })).toMatchObject({
      ours: false,
      reason: expect.stringContaining('10000001'),
    });
    expect(saleOwnership(MANUAL_QUERY_ANSWER, { ...OURS, amount: 15799 })).toMatchObject({ ours: false });
    expect(
      saleOwnership(
        {
          ...MANUAL_QUERY_ANSWER,
          Payment: { ...MANUAL_QUERY_ANSWER.Payment, SubordinatedMerchantId: '00000000-0000-4000-8000-00000000000b' },
        },
        OURS,
      ),
    ).toMatchObject({ ours: false, reason: expect.stringContaining('merchant') });
    expect(saleOwnership(MANUAL_QUERY_ANSWER, { ...OURS, merchantOrderId: '20180205' })).toMatchObject({ ours: false });
  });

  it('an answer that cannot tell (no terminal, no amount, no PaymentId, nothing) is unknown, not ours', () => {
    const { PinPadInformation: _pp, ...noTerminal } = MANUAL_QUERY_ANSWER.Payment;
    expect(saleOwnership({ ...MANUAL_QUERY_ANSWER, Payment: noTerminal }, OURS).ours).toBe('unknown');
    const { Amount: _a, ...noAmount } = MANUAL_QUERY_ANSWER.Payment;
    expect(saleOwnership({ ...MANUAL_QUERY_ANSWER, Payment: noAmount }, OURS).ours).toBe('unknown');
    expect(saleOwnership({}, OURS).ours).toBe('unknown');
    expect(findOurSale([], OURS).ours).toBe('unknown');
    expect(findOurSale({ Payments: [] }, OURS).ours).toBe('unknown');
  });

  it('in a list (two merchants’ sales under one order id) it picks ours, and only ours', () => {
    const theirs = {
      ...MANUAL_QUERY_ANSWER,
      Payment: {
        ...MANUAL_QUERY_ANSWER.Payment,
        PaymentId: 'other',
        PinPadInformation: { ...MANUAL_QUERY_ANSWER.Payment.PinPadInformation, TerminalId: '20000001' },
      },
    };
    expect(findOurSale([theirs, MANUAL_QUERY_ANSWER], OURS)).toEqual({
      ours: true,
      paymentId: 'f15889ea-5719-4e1a-a2da-f4e50d5bd702',
    });
    expect(findOurSale({ Payments: [theirs.Payment] }, OURS).ours).toBe(false);
  });

  it('over HTTP: the order id query answers another merchant’s sale; the check says not ours', async () => {
    const s = await loopback((req, res) => {
      if (req.url === '/oauth2/token')
        return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 3600 });
      json(res, 200, {
        ...MANUAL_QUERY_ANSWER,
        Payment: { ...MANUAL_QUERY_ANSWER.Payment, PinPadInformation: { TerminalId: '77770001' } },
      });
    });
    const a = loopbackAcquirer(s.url);
    try {
      const answer = await a.omni.getSaleByOrderId('20180204');
      expect(findOurSale(answer, OURS)).toMatchObject({ ours: false });
      expect(s.seen.at(-1)!.url).toBe('/1/physicalSales/MerchantOrderId/20180204');
    } finally {
      await a.close();
      await s.close();
    }
  });
});
