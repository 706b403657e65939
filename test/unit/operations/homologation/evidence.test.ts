import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../../src/core/errors/index.js';
import { maskBody, parseScript } from '../../../../src/operations/homologation/index.js';
import { TEST_CARDS } from '../../../../tables/test-cards.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed (operations/homologation/evidence): ${SEED}`);

describe('homologation evidence masking', () => {
  it('a physicalSales request keeps amounts and ids and loses the track, PIN block, KSNs, expiry and a PAN in free text', () => {
    const card = TEST_CARDS[0]!;
    const body = {
      MerchantOrderId: '263260010000001',
      Payment: {
        Amount: 1010,
        Capture: true,
        SoftDescriptor: `ref ${card.pan}`,
        PaymentDateTime: '2026-11-22T12:00:00Z',
        Card: {
          InputMode: 'Emv',
          TrackTwoData: 'A1B2C3D4E5F60718293A4B5C6D7E8F90',
          PinBlock: { EncryptedPinBlock: '0123456789ABCDEF', Ksn: 'FFFFF030331234400001' },
          EncryptedCardData: {
            EncryptionType: 'Dukpt3DesCBC',
            InitializationVector: '0000000000000000',
            TrackTwoDataKSN: 'FFFFF030331234600001',
          },
          EmvData: '9F2608AABBCCDDEEFF0011',
          CardExpirationDate: card.expirationDate,
        },
      },
    };
    const masked = maskBody(JSON.stringify(body)) as {
      MerchantOrderId: string;
      Payment: { Amount: number; SoftDescriptor: string; Card: Record<string, unknown> };
    };
    expect(masked.MerchantOrderId).toBe('263260010000001');
    expect(masked.Payment.Amount).toBe(1010);
    expect(masked.Payment.Card.InputMode).toBe('Emv');
    for (const k of ['TrackTwoData', 'PinBlock', 'EncryptedCardData', 'EmvData', 'CardExpirationDate'])
      expect(masked.Payment.Card[k]).toBe('[REDACTED]');
    expect(masked.Payment.SoftDescriptor).not.toContain(card.pan);
    expect(JSON.stringify(masked)).not.toMatch(/0123456789ABCDEF|FFFFF0303312344/);
    // The OAuth form and an access token in an answer.
    expect(maskBody('grant_type=client_credentials&client_secret=abc')).toEqual({
      grant_type: 'client_credentials',
      client_secret: '[REDACTED]',
    });
    expect(maskBody(JSON.stringify({ access_token: 'eyJ.abc.def', expires_in: 86399 }))).toEqual({
      access_token: '[REDACTED]',
      expires_in: 86399,
    });
    expect(maskBody('')).toBeUndefined();
  });

  it('a script that is not one is refused with OPERATIONS_SCRIPT_INVALID naming the path; never another error (1000 runs)', () => {
    expect(() => parseScript('{', 's.json')).toThrow(/s\.json: not JSON/);
    expect(() =>
      parseScript(
        JSON.stringify({ name: 'x', tests: [{ id: 'A', steps: [{ sale: { amount: -1, method: 'credit' } }] }] }),
      ),
    ).toThrow(/tests\.0\.steps\.0/);
    expect(() =>
      parseScript(
        JSON.stringify({
          name: 'x',
          tests: [
            { id: 'A', steps: [{ confirm: {} }] },
            { id: 'A', steps: [{ undo: {} }] },
          ],
        }),
      ),
    ).toThrow(/unique/);
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.json({ maxDepth: 5 })), (text) => {
        try {
          parseScript(text);
          return true;
        } catch (e) {
          return isOmniposError(e, 'OPERATIONS_SCRIPT_INVALID');
        }
      }),
      { numRuns: 1000, seed: SEED },
    );
  });
});
