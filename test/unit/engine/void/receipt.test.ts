import { describe, expect, it } from 'vitest';
import { encodeDocument } from '../../../../drivers/printer/index.js';
import { findPrinterModel } from '../../../../tables/printers/index.js';
import type { ReceiptPort, ReceiptSubject } from '../../../../src/engine/ports.js';
import { printVoidReceipt, voidReceiptSubject } from '../../../../src/engine/void/receipt.js';
import type { VoidData } from '../../../../src/engine/void/types.js';
import { paymentReceipt } from '../../../../src/receipt/index.js';
import { VirtualPrinter } from '../../../../src/sim/printer/index.js';

const card = {
  maskedPan: '47617300****0060',
  inputMode: 'Emv' as const,
  chip: true,
  isFallback: false,
  authenticationMethod: 'OnlineAuthentication' as const,
  productId: 1,
  issuerId: 1010,
};
const data: VoidData = {
  merchantOrderId: '263260070000042',
  merchantVoidId: '263260070000042',
  amount: 1234,
  authorizedBy: 'supervisor-password',
  card,
  sale: {
    id: 7,
    merchantOrderId: '263260070000041',
    paymentId: 'p',
    amount: 5000,
    method: 'credit',
    card,
    nsu: '000321',
    authorizationCode: 'A1B2C3',
  },
};

/** What a person reads on the virtual printer's paper for this copy. */
function paper(subject: ReceiptSubject, copy: 'customer' | 'merchant'): string {
  const model = findPrinterModel('virtual-80')!;
  const p = new VirtualPrinter({ model });
  p.write(encodeDocument(paymentReceipt(subject, { environment: 'sandbox', copy, columns: 48 }), model));
  expect(p.receipts).toHaveLength(1);
  return p.lastReceipt!.lines.join('\n');
}

describe("a card void's receipt", () => {
  it('says CANCELAMENTO and ESTORNO, the void amount, the original sale NSU and authorization, the PAN masked 6+4, in both copies', () => {
    const s = voidReceiptSubject(data);
    for (const copy of ['customer', 'merchant'] as const) {
      const text = paper(s, copy);
      expect(text).toContain(copy === 'customer' ? 'VIA CLIENTE' : 'VIA ESTABELECIMENTO');
      expect(text).toContain('CANCELAMENTO DE CRÉDITO');
      expect(text).toContain('ESTORNO DA VENDA ORIGINAL');
      expect(text).toMatch(/CANCELAMENTO +263260070000042/);
      expect(text).toMatch(/PEDIDO ORIG\. +263260070000041/);
      expect(text).toMatch(/NSU ORIG\. +000321/);
      expect(text).toMatch(/AUT\. ORIG\. +A1B2C3/);
      expect(text).toMatch(/VALOR CANCELADO +R\$ 12,34/);
      expect(text).toMatch(/CARTÃO +476173\*+0060/);
      expect(text).not.toContain('47617300');
    }
  });

  it('prints the customer copy then the merchant copy; a failed or throwing printer is reported, never thrown', async () => {
    const copies: string[] = [];
    const ok: ReceiptPort = { print: (_s, o) => (copies.push(o?.copy ?? '?'), Promise.resolve('printed')) };
    expect(await printVoidReceipt(ok, voidReceiptSubject(data), console)).toBe('printed');
    expect(copies).toEqual(['customer', 'merchant']);
    const out: ReceiptPort = { print: () => Promise.resolve('failed') };
    expect(await printVoidReceipt(out, voidReceiptSubject(data), { warn: () => undefined })).toBe('failed');
    const broken: ReceiptPort = { print: () => Promise.reject(new Error('offline')) };
    expect(await printVoidReceipt(broken, voidReceiptSubject(data), { warn: () => undefined })).toBe('unsure');
  });
});
