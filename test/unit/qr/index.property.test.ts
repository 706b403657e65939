import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  buildPadraoq,
  buildPix,
  crc16Hex,
  encodeMpm,
  isTemplateId,
  parseMpm,
  parsePadraoq,
  parsePix,
  parseQr,
  toAns,
  type CurrentFields,
  type EarlierFields,
  type MpmInput,
  type OldestFields,
  type PadraoqFields,
} from '../../../src/qr/index.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
const RUNS = 1000;
console.log(`fast-check seed (qr): ${SEED}`);
const opts = { seed: SEED, numRuns: RUNS };

const digits = (min: number, max = min): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const ANS_CHARS = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i));
const ans = (min: number, max = min): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...ANS_CHARS), minLength: min, maxLength: max });
const upperName = (max: number): fc.Arbitrary<string> =>
  fc
    .string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .-&'), minLength: 1, maxLength: max })
    .map((s) => toAns(s, max))
    .filter((s) => s.length > 0);
const two = (a: number, b: number): fc.Arbitrary<string> =>
  fc.integer({ min: a, max: b }).map((n) => String(n).padStart(2, '0'));
const ddmmyyhhmmss = fc
  .tuple(two(1, 28), two(1, 12), two(0, 99), two(0, 23), two(0, 59), two(0, 59))
  .map((p) => p.join(''));
const amount = fc.tuple(fc.integer({ min: 0, max: 99_999_999 }), two(0, 99)).map(([i, c]) => `${i}.${c}`);
const modality = fc.constantFrom('0001', '0002', '0004', '0008', '0010', '0020', '0040', '0200', '0400', '0000');
const PRODUCT: Record<string, string> = {
  '0001': 'D',
  '0002': 'C',
  '0004': 'C',
  '0008': 'C',
  '0010': 'V',
  '0020': 'V',
  '0200': 'C',
  '0400': 'C',
};

const current: fc.Arbitrary<CurrentFields> = fc
  .record({
    merchantId: digits(16),
    terminalId: digits(8),
    merchantDocument: fc.option(digits(11, 14), { nil: undefined }),
    gui: fc.constantFrom('BR.COM.ELO', 'BR.COM.SCHEMEB'),
    acq: ans(4, 7),
    deviceType: fc.constantFrom('A', 'C', 'E', 'M', 'P', 'T'),
    mcc: digits(4),
    amount,
    merchantName: upperName(25),
    merchantCity: upperName(15),
    postalCode: fc.option(digits(8), { nil: undefined }),
    referenceLabel: ans(1, 25),
    timestamp: ddmmyyhhmmss,
    modality,
    installments: two(0, 12),
    cancel: fc.boolean(),
    originalNsu: fc.option(digits(1, 12), { nil: undefined }),
    nsu: digits(6),
    original: fc.record({
      nsu: digits(6),
      date: fc.tuple(two(1, 12), two(1, 28)).map((p) => p.join('')),
      terminalId: ans(8),
    }),
  })
  .map((r) => {
    const f: CurrentFields = {
      model: 'current',
      merchantId: r.merchantId,
      terminalId: r.terminalId,
      ...(r.merchantDocument !== undefined ? { merchantDocument: r.merchantDocument } : {}),
      mcc: r.mcc,
      currency: '986',
      amount: r.amount,
      merchantName: r.merchantName,
      merchantCity: r.merchantCity,
      referenceLabel: r.referenceLabel,
      timestamp: r.timestamp,
      secondSchemeGui: r.gui,
      secondSchemeAcquirerId: r.acq,
      deviceType: r.deviceType,
      ...(r.postalCode !== undefined ? { postalCode: r.postalCode } : {}),
      modality: r.modality,
      installments: r.installments,
      transactionType: r.cancel ? '02' : '01',
      ...(r.originalNsu !== undefined ? { originalNsu: r.originalNsu } : {}),
      schemeDate: r.timestamp.slice(2, 4) + r.timestamp.slice(0, 2) + r.timestamp.slice(6),
      productType: (PRODUCT[r.modality] ?? 'O') + r.installments,
      schemeTransactionType: r.cancel ? '02' : '01',
      nsu: r.nsu,
      ...(r.cancel ? { original: r.original } : {}),
      version: '3',
    };
    return f;
  });

const earlier: fc.Arbitrary<EarlierFields> = fc
  .record({
    merchantId: digits(16),
    terminalId: digits(8),
    mcc: digits(4),
    amount,
    merchantName: upperName(25),
    merchantCity: upperName(15),
    referenceLabel: ans(1, 25),
    timestamp: ddmmyyhhmmss,
    mainProduct: digits(4),
    installments: two(0, 99),
    transactionType: fc.constantFrom('01', '02'),
    reserved: fc.option(ans(1, 95), { nil: undefined }),
  })
  .map(({ reserved, ...r }) => ({
    model: 'earlier' as const,
    currency: '986',
    ...r,
    ...(reserved !== undefined ? { reserved } : {}),
  }));

const oldest: fc.Arbitrary<OldestFields> = fc
  .record({
    gui: ans(1, 32),
    merchantId: digits(16),
    terminalId: digits(8),
    mcc: digits(4),
    amount,
    merchantName: upperName(25),
    merchantCity: upperName(15),
    url: ans(1, 40),
    transactionId: ans(16),
    timestamp: ddmmyyhhmmss,
    mainProduct: digits(4),
    subProduct: digits(4),
    installments: two(0, 99),
    transactionType: fc.constantFrom('01', '02'),
  })
  .filter((r) => r.gui !== 'br.com.padraoq')
  .map((r) => ({ model: 'oldest' as const, currency: '986', ...r }));

function typedOrValue(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (isOmniposError(e, 'QR_INVALID')) return true;
    throw e;
  }
}

/** Reference CRC: bit by bit over UTF-8, independent of the table. */
function crcBitwise(text: string): string {
  let crc = 0xffff;
  for (const b of new TextEncoder().encode(text)) {
    crc ^= b << 8;
    for (let k = 0; k < 8; k++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const idArb = fc
  .integer({ min: 1, max: 99 })
  .filter((n) => n !== 63)
  .map((n) => String(n).padStart(2, '0'));
const valueArb = fc.string({ maxLength: 30 });
const mpmArb: fc.Arbitrary<MpmInput[]> = fc
  .uniqueArray(idArb, { maxLength: 10 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        isTemplateId(id)
          ? fc
              .uniqueArray(
                fc.tuple(
                  fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0')),
                  valueArb,
                ),
                { maxLength: 3, selector: ([i]) => i },
              )
              .map((cs) => ({ id, children: cs.map(([i, v]) => ({ id: i, value: v })) }))
          : valueArb.map((value) => ({ id, value })),
      ),
    ),
  )
  .map((objs) => [{ id: '00', value: '01' }, ...objs]);

function plain(objects: readonly { id: string; value?: string; children?: readonly unknown[] }[]): unknown {
  return objects.map((o) =>
    o.children ? { id: o.id, children: plain(o.children as never) } : { id: o.id, value: o.value },
  );
}

describe(`QR properties (seed ${SEED}, ${RUNS} runs each)`, () => {
  it('CRC table = bitwise reference', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'grapheme' }), (s) => crc16Hex(s) === crcBitwise(s)),
      opts,
    );
  });

  it('generic MPM: parse(encode(x)) = x', () => {
    fc.assert(
      fc.property(mpmArb, (objs) => {
        const text = encodeMpm(objs);
        const parsed = parseMpm(text);
        expect(plain(parsed.slice(0, -1))).toEqual(plain(objs));
      }),
      opts,
    );
  });

  it.each([
    ['current', current],
    ['earlier', earlier],
    ['oldest', oldest],
  ] as const)('padraoq %s: parse(build(f)).fields = f', (_m, arb) => {
    fc.assert(
      fc.property(arb as fc.Arbitrary<PadraoqFields>, (f) => {
        const parsed = parsePadraoq(buildPadraoq(f));
        expect(parsed.fields).toEqual(f);
        expect(parsed.model).toBe(f.model);
      }),
      opts,
    );
  });

  it('Pix: parse(build(x)) keeps the fields', () => {
    const pixArb = fc.record({
      key: ans(1, 36),
      merchantName: upperName(25),
      merchantCity: upperName(15),
      amount: fc.option(amount, { nil: undefined }),
      txid: fc.string({
        unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'),
        minLength: 1,
        maxLength: 25,
      }),
    });
    fc.assert(
      fc.property(pixArb, (x) => {
        const p = parsePix(buildPix(x));
        expect({
          key: p.key,
          name: p.merchantName,
          city: p.merchantCity,
          amount: p.transactionAmount,
          txid: p.txid,
        }).toEqual({ key: x.key, name: x.merchantName, city: x.merchantCity, amount: x.amount, txid: x.txid });
      }),
      opts,
    );
  });

  const parsers = [
    ['parseMpm', parseMpm],
    ['parsePix', parsePix],
    ['parsePadraoq', parsePadraoq],
    ['parseQr', parseQr],
  ] as const;

  it.each(parsers)('%s: random strings give a value or QR_INVALID', (_n, parse) => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => typedOrValue(() => parse(s))),
      opts,
    );
  });

  it.each(parsers)('%s: random TLV-shaped strings with a valid CRC give a value or QR_INVALID', (_n, parse) => {
    const chunk = fc
      .tuple(fc.integer({ min: 0, max: 99 }), fc.string({ maxLength: 20 }))
      .map(([id, v]) => `${String(id).padStart(2, '0')}${String(v.length).padStart(2, '0')}${v}`);
    fc.assert(
      fc.property(fc.array(fc.oneof(chunk, fc.string({ maxLength: 6 })), { maxLength: 12 }), (parts) => {
        const head = `000201${parts.join('')}6304`;
        return typedOrValue(() => parse(head + crc16Hex(head)));
      }),
      opts,
    );
  });

  it.each(parsers)('%s: one character of a valid code changed (CRC fixed) gives a value or QR_INVALID', (_n, parse) => {
    fc.assert(
      fc.property(current, fc.nat(), fc.string({ minLength: 1, maxLength: 1 }), (f, at, ch) => {
        const code = buildPadraoq(f);
        const i = at % (code.length - 8);
        const head = `${code.slice(0, i)}${ch}${code.slice(i + 1, -4)}`;
        return typedOrValue(() => parse(head + crc16Hex(head)));
      }),
      opts,
    );
  });

  // A hang (or a quadratic walk of 1 MB) ends at the test's timeout: no bound on elapsed time here.
  it.each(parsers)('%s: a 1 MB string ends (no hang)', (_n, parse) => {
    for (const big of ['0'.repeat(1 << 20), `0002019999${'9'.repeat(1 << 20)}`, '00020126'.repeat(1 << 17)])
      expect(typedOrValue(() => parse(big))).toBe(true);
  });

  it('the builder gives a code or QR_INVALID for arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.object(), fc.jsonValue(), (o, v) =>
        typedOrValue(() => buildPadraoq({ ...o, amount: v } as never)),
      ),
      opts,
    );
  });
});
