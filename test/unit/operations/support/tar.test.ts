import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../../src/core/errors/index.js';
import { maskBody, parseScript } from '../../../../src/operations/homologation/index.js';
import { dayReportDocument, buildDayReport } from '../../../../src/operations/day/index.js';
import { tarArchive, untar } from '../../../../src/operations/support/index.js';
import { receiptLines } from '../../../../src/receipt/index.js';
import { TEST_CARDS } from '../../../../tables/test-cards.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed (operations/support-homologation): ${SEED}`);
const tempDir = useTempDirs();

describe('the tar writer', () => {
  it('reads back what it wrote, any names and contents (1000 runs)', () => {
    const name = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,40}(\/[a-z0-9][a-z0-9._-]{0,20})?$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ name, data: fc.uint8Array({ maxLength: 1500 }) }), {
          selector: (f) => f.name,
          maxLength: 8,
        }),
        (files) => {
          const back = untar(tarArchive(files));
          return (
            back.length === files.length &&
            back.every((b, i) => b.name === files[i]!.name && Buffer.compare(b.data, Buffer.from(files[i]!.data)) === 0)
          );
        },
      ),
      { numRuns: 1000, seed: SEED },
    );
  });

  it('the system tar extracts it byte for byte (POSIX ustar), and unsafe names are refused', () => {
    const dir = tempDir();
    const files = [
      { name: 'README.txt', data: 'hello\n' },
      { name: 'a/b.json', data: JSON.stringify({ x: 'é'.repeat(600) }) },
      { name: 'empty', data: '' },
    ];
    writeFileSync(path.join(dir, 'x.tar'), tarArchive(files));
    mkdirSync(path.join(dir, 'out'));
    execFileSync('tar', ['xf', path.join(dir, 'x.tar'), '-C', path.join(dir, 'out')]);
    for (const f of files) expect(readFileSync(path.join(dir, 'out', f.name), 'utf8')).toBe(f.data);
    for (const bad of ['/etc/passwd', '../x', 'a/../../x', 'x'.repeat(101), 'ñ'])
      expect(() => tarArchive([{ name: bad, data: '' }])).toThrow(/tar: /);
  });
});

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

describe("the day's printed layout", () => {
  it('fits 32, 42 and 48 columns whatever the totals, with the test banner outside production only (1000 runs)', () => {
    const group = fc.record({
      sales: fc.nat(999),
      salesAmount: fc.nat(9_999_999_999),
      voids: fc.nat(99),
      voidsAmount: fc.nat(99_999_999),
      net: fc.integer(),
    });
    fc.assert(
      fc.property(
        fc.constantFrom<32 | 42 | 48>(32, 42, 48),
        fc.constantFrom('sandbox', 'homologation', 'production'),
        fc.dictionary(
          fc.constantFrom('credit', 'debit', 'voucher', 'wallet-qr', 'pix', 'a-very-long-unknown-method-name-indeed'),
          group,
        ),
        fc.dictionary(fc.stringMatching(/^[0-9]{1,4}$/), group),
        (columns, environment, byMethod, byBrand) => {
          const base = buildDayReport({
            date: '2026-11-22',
            from: new Date(0),
            to: new Date(1),
            now: new Date('2026-11-22T23:59:00Z'),
            lines: [],
            closedAt: new Date('2026-11-23T02:00:00Z'),
          });
          const report = {
            ...base,
            totals: { ...base.totals, byMethod, byBrand, byProduct: byBrand, net: 123_456_789 },
          };
          const lines = receiptLines(
            dayReportDocument(report, { columns, environment, terminalId: '42004201' }),
            columns,
          );
          const banner = lines.some((l) => l.includes('AMBIENTE DE TESTE'));
          return (
            lines.every((l) => [...l].length <= columns) &&
            banner === (environment !== 'production') &&
            lines[0]!.includes('FECHAMENTO DO DIA')
          );
        },
      ),
      { numRuns: 1000, seed: SEED },
    );
  });
});
