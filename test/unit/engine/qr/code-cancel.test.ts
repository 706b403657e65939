import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../../src/core/errors/index.js';
import { buildCancellationCode } from '../../../../src/engine/qr/code-cancel.js';
import { saleQrCode, type MerchantProfile } from '../../../../src/engine/qr/code.js';
import type { QrSaleRequest } from '../../../../src/engine/qr/types.js';
import { buildPix, mpmChild, parseMpm, parsePadraoq, type MpmObject } from '../../../../src/qr/index.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed (qr cancellation code): ${SEED}`);

const MERCHANT: MerchantProfile = {
  merchantNumber: '1020304050607080',
  terminalId: '42004201',
  nationalId: '11222333000181',
  mcc: '5812',
  name: 'PADARIA SAO JOAO',
  city: 'SAO PAULO',
  postalCode: '01310100',
  deviceType: 'P',
};

const request = (amount: number, installments = 1): QrSaleRequest => ({
  amount,
  method: 'credit',
  installments,
  interest: 'ByMerchant',
  confirmation: 'auto',
});

/** The value of object `path` ("81.04") in a parsed code. */
function at(objects: readonly MpmObject[], path: string): string | undefined {
  const [top, sub] = path.split('.') as [string, string | undefined];
  const o = mpmChild(objects, top);
  return sub === undefined ? o?.value : mpmChild(o?.children, sub)?.value;
}

// 14 Nov 2026 15:30:45 in São Paulo (UTC-3) is 18:30:45 UTC; the cancel on 16 Nov 09:05:07.
const SOLD = new Date('2026-11-14T18:30:45Z');
const CANCELLED = new Date('2026-11-16T12:05:07Z');

describe('buildCancellationCode: the cancellation code of a wallet QR sale (000, "Current model")', () => {
  const sale = saleQrCode(MERCHANT, {
    request: request(12_399, 3),
    merchantOrderId: '263180010000123',
    nsu: '000417',
    issuedAt: SOLD,
  });
  const code = buildCancellationCode({ original: sale, nsu: '000421', issuedAt: CANCELLED });
  const s = parseMpm(sale);
  const c = parseMpm(code);

  it('says cancellation in 81.04 and 82.03 ("02"), where the sale said "01"', () => {
    expect([at(s, '81.04'), at(s, '82.03')]).toEqual(['01', '01']);
    expect([at(c, '81.04'), at(c, '82.03')]).toEqual(['02', '02']);
  });

  it('82.05–82.07 name the original: its NSU (82.04), date MMDD (of 82.01) and terminal id (27.03); 81.06 the original NSU', () => {
    expect(at(s, '82.04')).toBe('000417');
    expect(at(s, '82.01')).toBe('1114153045');
    expect(at(c, '82.05')).toBe('000417');
    expect(at(c, '82.06')).toBe('1114');
    expect(at(c, '82.07')).toBe('42004201');
    expect(at(c, '81.06')).toBe('000417');
    // The sale itself carries none of them (only for cancellations).
    expect([at(s, '82.05'), at(s, '82.06'), at(s, '82.07'), at(s, '81.06')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("its own NSU (82.04) and date (81.01 DDMMYYHHmmss, 82.01 MMDDHHmmss) are the cancellation's", () => {
    expect(at(c, '82.04')).toBe('000421');
    expect(at(c, '81.01')).toBe('161126090507');
    expect(at(c, '82.01')).toBe('1116090507');
  });

  it('keeps the merchant, terminal, amount, modality, installments, product and reference label of the sale', () => {
    for (const id of [
      '26.01',
      '26.02',
      '26.03',
      '26.04',
      '27.00',
      '27.01',
      '27.02',
      '27.03',
      '27.04',
      '52',
      '53',
      '54',
      '58',
      '59',
      '60',
      '61',
      '62.05',
      '81.02',
      '81.03',
      '81.05',
      '82.02',
      '82.08',
    ]) {
      expect(at(c, id), id).toBe(at(s, id));
    }
    expect(at(c, '54')).toBe('123.99');
    expect(at(c, '82.02')).toBe('C03');
  });

  it('is a valid current-model code (layout, cross-field rules and CRC checked by the parser)', () => {
    const p = parsePadraoq(code);
    expect(p.model).toBe('current');
    expect(p.qrcode_data.payment_information.tipo_de_transacao).toBe('02');
  });

  it('a partial cancellation carries the cancelled amount in 54', () => {
    expect(
      at(parseMpm(buildCancellationCode({ original: sale, nsu: '000422', issuedAt: CANCELLED, amount: 5000 })), '54'),
    ).toBe('50.00');
  });

  it.each([
    [
      'a cancellation code',
      () => buildCancellationCode({ original: code, nsu: '000423', issuedAt: CANCELLED }),
      '81.04',
    ],
    [
      'more than the sale',
      () => buildCancellationCode({ original: sale, nsu: '000423', issuedAt: CANCELLED, amount: 12_400 }),
      '54',
    ],
    [
      'an NSU that is not 6 digits',
      () => buildCancellationCode({ original: sale, nsu: '42', issuedAt: CANCELLED }),
      '82.04',
    ],
    [
      'a Pix code',
      () =>
        buildCancellationCode({
          original: buildPix({ key: '11222333000181', merchantName: 'X', merchantCity: 'Y', amount: 1 }),
          nsu: '000423',
          issuedAt: CANCELLED,
        }),
      '26',
    ],
    [
      'a code with a wrong CRC',
      () =>
        buildCancellationCode({
          original: `${sale.slice(0, -1)}${sale.endsWith('0') ? '1' : '0'}`,
          nsu: '000423',
          issuedAt: CANCELLED,
        }),
      '63',
    ],
  ])('refuses %s with QR_INVALID naming the object', (_name, f, where) => {
    let error: unknown;
    try {
      f();
    } catch (e) {
      error = e;
    }
    expect(isOmniposError(error, 'QR_INVALID')).toBe(true);
    expect((error as Error).message.startsWith(where)).toBe(true);
  });

  it('for any sale: the cancellation parses, says 02/02, points at the sale, and keeps its amount (property, 1000 runs)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.integer({ min: 1, max: 24 }),
        fc.constantFrom<'credit' | 'debit'>('credit', 'debit'),
        fc.integer({ min: 0, max: 999_999 }),
        fc.integer({ min: 0, max: 999_999 }),
        fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 40 * 86_400_000 }),
        (cents, installments, method, saleNsu, cancelNsu, soldAt, after) => {
          const nsu = String(saleNsu).padStart(6, '0');
          const original = saleQrCode(MERCHANT, {
            request: { ...request(cents, method === 'debit' ? 1 : installments), method },
            merchantOrderId: '263180010000999',
            nsu,
            issuedAt: soldAt,
          });
          const cancel = buildCancellationCode({
            original,
            nsu: String(cancelNsu).padStart(6, '0'),
            issuedAt: new Date(soldAt.getTime() + after),
          });
          parsePadraoq(cancel);
          const o = parseMpm(original);
          const x = parseMpm(cancel);
          expect([at(x, '81.04'), at(x, '82.03'), at(x, '82.05'), at(x, '82.06'), at(x, '82.07')]).toEqual([
            '02',
            '02',
            nsu,
            at(o, '82.01')!.slice(0, 4),
            at(o, '27.03'),
          ]);
          expect(at(x, '54')).toBe(at(o, '54'));
          expect(at(x, '82.02')).toBe(at(o, '82.02'));
        },
      ),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('any text as the original: a code, or QR_INVALID naming where; never another error (fuzz, 1000 runs)', () => {
    const sale2 = saleQrCode(MERCHANT, {
      request: request(500),
      merchantOrderId: '263180010000555',
      nsu: '000001',
      issuedAt: SOLD,
    });
    const mutated = fc
      .tuple(fc.nat(sale2.length - 1), fc.string({ minLength: 0, maxLength: 3 }))
      .map(([at, s]) => sale2.slice(0, at) + s + sale2.slice(at + 1));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 400 }), mutated), (text) => {
        try {
          parsePadraoq(buildCancellationCode({ original: text, nsu: '000002', issuedAt: CANCELLED }));
        } catch (e) {
          expect(isOmniposError(e, 'QR_INVALID'), String(e)).toBe(true);
        }
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });
});
