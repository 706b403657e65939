import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PrintDocument } from '../../../drivers/printer/index.js';
import { receiptSource } from '../../helpers/receipt-arbitrary.js';
import {
  maskPan,
  maskPansIn,
  receiptDocument,
  receiptHtml,
  receiptText,
  validateReceiptSource,
  type ReceiptDocument,
} from '../../../src/receipt/index.js';
import { receiptInformation } from '../../../src/sandbox/answers.js';
import type { SandboxContext } from '../../../src/sandbox/context.js';
import { source } from '../../helpers/receipt-sources.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed (receipt): ${SEED}`);

describe('receipt model', () => {
  it("the document is assignable to the driver's PrintDocument (the two shapes stay equal)", () => {
    const doc: ReceiptDocument = receiptDocument(source(), 'customer', 48);
    const asPrint: PrintDocument = doc;
    expect(asPrint.length).toBeGreaterThan(10);
  });

  it("masks any card number to first 6 and last 4 at most (published sample `541333-3511` in the manual's receipts)", () => {
    expect(maskPan('541333-3511')).toBe('541333******3511');
    expect(maskPan('54133300****3511')).toBe('541333******3511');
    expect(maskPan('5413330089020011')).toBe('541333******0011');
    expect(maskPan('************0011')).toBe('************0011');
    expect(maskPan('0011')).toBe('************0011');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('0', '1', '5', '9', '*', '-', ' '), maxLength: 24 }), (v) => {
        const m = maskPan(v);
        const lead = /^\d*/.exec(m)![0];
        const trail = /\d*$/.exec(m)![0];
        expect(lead.length).toBeLessThanOrEqual(6);
        expect(trail.length).toBeLessThanOrEqual(4);
        expect(m.replace(/\D/g, '').length).toBeLessThanOrEqual(10);
      }),
      { numRuns: 1000, seed: SEED },
    );
    expect(maskPansIn('doc 11222333000181 pan 4111111111111111')).toBe('doc 11222333000181 pan 411111******1111');
  });

  it('reads the rows the sandbox host really sends', () => {
    const rows = receiptInformation({} as SandboxContext, {
      nsu: '000777',
      at: new Date('2026-11-22T13:05:00Z'),
      maskedPan: '541333-3511',
      type: 'PhysicalCreditCard',
      authorizationCode: 'XYZ123',
      inputMode: 'ContactlessEmv',
      amount: 2590,
      transaction: 'VENDA',
    });
    const text = receiptText(receiptDocument(source({ receiptInformation: rows, amount: 2590 }), 'customer', 48), 48);
    expect(text).toContain('OMNIPOS LOJA TESTE');
    expect(text).toMatch(/DOC \(NSU\) +000777/);
    expect(text).toMatch(/DATA 22\/11\/26 +HORA 10:05/);
    expect(text).toMatch(/MODO +APROXIMAÇÃO \/ ONL/);
    expect(text).toMatch(/VALOR +R\$ 25,90/);
    expect(text).toMatch(/CARTÃO +541333\*{6}3511/);
  });

  it('unknown host rows are printed as label and content', () => {
    const s = source({
      receiptInformation: [
        ...source().receiptInformation,
        { Field: 'ARQC', Label: 'ARQC', Content: 'ABCDEF0123456789' },
      ],
    });
    expect(receiptText(receiptDocument(s, 'merchant', 32), 32)).toMatch(/ARQC +ABCDEF0123456789/);
  });

  it('HTML for the screen: escaped, bold lines in <b>, the banner with its em dash', () => {
    const s = source({
      receiptInformation: source().receiptInformation.map((r) =>
        r.Field === 'MERCHANT_NAME' ? { ...r, Content: 'A<B> & "C"' } : r,
      ),
    });
    const html = receiptHtml(receiptDocument(s, 'customer', 42), 42);
    expect(html).toContain('A&lt;B&gt; &amp; &quot;C&quot;');
    expect(html).not.toContain('<B>');
    expect(html).toContain('<b>      AMBIENTE DE TESTE — SEM VALOR</b>');
    expect(html).toMatch(/^<pre class="omnipos-receipt"/);
  });

  it('refuses malformed input with RECEIPT_INVALID naming where', () => {
    const bad: [unknown, RegExp][] = [
      [{ ...source(), amount: 0 }, /amount/],
      [{ ...source(), installments: 100 }, /installments/],
      [{ ...source(), merchantOrderId: 'abc' }, /merchantOrderId/],
      [{ ...source(), receiptInformation: [{ Field: 'X', Label: 'Y' }] }, /receiptInformation\.0/],
      [{ ...source(), printMessages: [{ Position: 1, Message: 'x' }] }, /printMessages\.0/],
      [{ ...source(), environment: 'prod' }, /environment/],
    ];
    for (const [s, where] of bad) {
      expect(() => validateReceiptSource(s)).toThrowError(
        expect.objectContaining({ code: 'RECEIPT_INVALID', message: expect.stringMatching(where) as string }) as Error,
      );
    }
    expect(() => receiptDocument(source(), 'customer', 40 as 42)).toThrowError(
      expect.objectContaining({ code: 'RECEIPT_INVALID' }) as Error,
    );
  });

  it('never throws anything but RECEIPT_INVALID, and never exceeds the width, for arbitrary host rows (fuzz)', () => {
    fc.assert(
      fc.property(receiptSource(), fc.constantFrom(32 as const, 42 as const, 48 as const), (s, cols) => {
        try {
          const doc = receiptDocument(s, 'customer', cols);
          for (const l of receiptText(doc, cols).split('\n')) expect([...l].length).toBeLessThanOrEqual(cols);
        } catch (e) {
          expect((e as { code?: string }).code).toBe('RECEIPT_INVALID');
        }
      }),
      { numRuns: 1000, seed: SEED },
    );
  });
});
