import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeDocument } from '../../../drivers/printer/index.js';
import { PRINTER_MODELS, type PrinterModel } from '../../../tables/printers/index.js';
import { VirtualPrinter } from '../../../src/sim/printer/index.js';
import {
  paymentReceipt,
  receiptLines,
  receiptSourceOf,
  REPRINT_MARK,
  RECEIPT_COLUMNS,
  type ReceiptColumns,
  type ReceiptFacts,
} from '../../../src/receipt/index.js';
import { rows } from '../../helpers/receipt-sources.js';

/** A card sale as the journal keeps it: the host's rows in `hostReceipt`, as the engine stores them. */
const facts: ReceiptFacts = {
  merchantOrderId: '263260010000123',
  paymentType: 'credit',
  amount: 1000,
  installments: 3,
  interest: 'ByMerchant',
  authorizationCode: 'A1B2C3',
  nsu: '000123',
  maskedPan: '54133300******3511',
  cvm: 'pin',
  hostReceipt: {
    fields: rows().map((r) => ({ field: r.Field, label: r.Label, content: r.Content })),
    messages: [{ position: 'Bottom', message: 'OBRIGADO E VOLTE SEMPRE' }],
  },
};

const MODEL_FOR: Record<ReceiptColumns, PrinterModel> = {
  32: PRINTER_MODELS.find((m) => m.columns.a === 32 && m.cutter.partial)!,
  42: PRINTER_MODELS.find((m) => m.columns.a === 42)!,
  48: PRINTER_MODELS.find((m) => m.columns.a === 48)!,
};

describe('receipts rebuilt from the journal, and the reprint mark', () => {
  it("maps the journal's receipt rows to the host's field names, and leaves out what the sale lacks", () => {
    const s = receiptSourceOf(facts, 'production');
    expect(s.receiptInformation[0]).toEqual({
      Field: 'MERCHANT_NAME',
      Label: 'NOME DO ESTABELECIMENTO',
      Content: 'PADARIA SÃO JOÃO',
    });
    expect(s.printMessages).toEqual([{ Position: 'Bottom', Message: 'OBRIGADO E VOLTE SEMPRE' }]);
    expect(s).not.toHaveProperty('reprint');
    const pix = receiptSourceOf({ merchantOrderId: '1', paymentType: 'pix', amount: 500, installments: 1 }, 'sandbox', {
      reprint: true,
    });
    expect(pix).toEqual({
      kind: 'sale',
      environment: 'sandbox',
      paymentType: 'pix',
      amount: 500,
      installments: 1,
      receiptInformation: [],
      printMessages: [],
      merchantOrderId: '1',
      reprint: true,
    });
  });

  it.each(RECEIPT_COLUMNS.flatMap((c) => (['customer', 'merchant'] as const).map((copy) => [c, copy] as const)))(
    'a reprint at %i columns (%s copy) reads, on the virtual printer, as the receipt with "SEGUNDA VIA" under the copy\'s name',
    (columns, copy) => {
      const model = MODEL_FOR[columns];
      const paper = (reprint: boolean): string[] => {
        const p = new VirtualPrinter({ model });
        p.write(encodeDocument(paymentReceipt(facts, { environment: 'sandbox', copy, columns, reprint }), model));
        expect(p.unknown).toEqual([]);
        return [...p.lastReceipt!.lines];
      };
      const first = paper(false);
      const again = paper(true);
      const at = again.findIndex((l) => l.trim() === REPRINT_MARK);
      expect(at).toBeGreaterThan(0);
      expect(again[at - 1]!.trim()).toBe(copy === 'customer' ? 'VIA CLIENTE' : 'VIA ESTABELECIMENTO');
      expect([...again.slice(0, at), ...again.slice(at + 1)]).toEqual(first);
      for (const l of again) expect([...l].length).toBeLessThanOrEqual(columns);
      const text = again.join('\n');
      expect(text).toContain('PADARIA SÃO JOÃO');
      expect(text).toContain('CRÉDITO PARCELADO LOJA');
      expect(text).toMatch(/1ª PARCELA +R\$ 3,34/);
      expect(text).toMatch(/CARTÃO +541333\*{6}3511/);
      expect(text.replace(/\s+/g, ' ')).toContain('TRANSAÇÃO AUTORIZADA MEDIANTE USO DE SENHA PESSOAL');
    },
  );

  it('for any sale, the reprint is the receipt plus exactly the mark, and the mark never shows on a first print (property)', () => {
    const seed = Date.now();
    console.log(`reprint property seed ${seed}`);
    const arb: fc.Arbitrary<ReceiptFacts> = fc.record({
      merchantOrderId: fc.stringMatching(/^\d{1,15}$/),
      paymentType: fc.constantFrom('credit', 'debit', 'voucher', 'wallet-qr', 'pix'),
      amount: fc.integer({ min: 1, max: 99_999_999 }),
      installments: fc.integer({ min: 1, max: 12 }),
      interest: fc.constantFrom('ByMerchant', 'ByIssuer'),
      authorizationCode: fc.stringMatching(/^[A-Z0-9]{6}$/),
      nsu: fc.stringMatching(/^\d{6}$/),
      hostReceipt: fc.record({
        fields: fc.array(
          fc.record({
            field: fc.constantFrom('MERCHANT_NAME', 'NSU', 'EXTRA', 'DATE'),
            label: fc.string({ maxLength: 20 }),
            content: fc.string({ maxLength: 60 }),
          }),
          { maxLength: 6 },
        ),
        messages: fc.array(
          fc.record({ position: fc.constantFrom('Top', 'Bottom'), message: fc.string({ maxLength: 80 }) }),
          { maxLength: 3 },
        ),
      }),
    });
    fc.assert(
      fc.property(
        arb,
        fc.constantFrom(...RECEIPT_COLUMNS),
        fc.constantFrom('customer' as const, 'merchant' as const),
        (f, columns, copy) => {
          const first = receiptLines(paymentReceipt(f, { environment: 'production', copy, columns }), columns);
          const again = receiptLines(
            paymentReceipt(f, { environment: 'production', copy, columns, reprint: true }),
            columns,
          );
          if (
            first.some((l) => l.trim() === REPRINT_MARK) &&
            !f.hostReceipt!.messages.some((m) => m.message.includes(REPRINT_MARK))
          )
            return false;
          const at = again.findIndex((l, i) => l.trim() === REPRINT_MARK && first[i]?.trim() !== REPRINT_MARK);
          return at > 0 && JSON.stringify([...again.slice(0, at), ...again.slice(at + 1)]) === JSON.stringify(first);
        },
      ),
      { numRuns: 1000, seed },
    );
  });
});
