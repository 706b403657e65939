import fc from 'fast-check';
import type { ReceiptSource } from '../../src/receipt/index.js';
import { source } from './receipt-sources.js';

/** Arbitrary receipts: host rows of any text (long, accented, empty), amounts and installments in and out of range. */
export function receiptSource(): fc.Arbitrary<ReceiptSource> {
  const text = fc.string({ maxLength: 120 });
  return fc
    .record({
      rows: fc.array(
        fc.record({
          Field: fc.constantFrom(
            'MERCHANT_NAME',
            'MERCHANT_ADDRESS',
            'CARD_NUMBER',
            'NSU',
            'DATE',
            'HOUR',
            'OTHER',
            'X',
          ),
          Label: text,
          Content: text,
        }),
        { maxLength: 20 },
      ),
      messages: fc.array(fc.record({ Position: fc.constantFrom('Top', 'Bottom', ''), Message: text }), {
        maxLength: 4,
      }),
      amount: fc.integer({ min: -5, max: 10_000_000_00 }),
      installments: fc.integer({ min: 0, max: 101 }),
    })
    .map(({ rows, messages, amount, installments }) =>
      source({ receiptInformation: rows, printMessages: messages, amount, installments }),
    );
}
