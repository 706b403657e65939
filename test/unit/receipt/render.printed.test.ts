import { describe, expect, it } from 'vitest';
import { encodeDocument, type PrintDocument } from '../../../drivers/printer/index.js';
import { PRINTER_MODELS, type PrinterModel } from '../../../tables/printers/index.js';
import { VirtualPrinter } from '../../../src/sim/printer/index.js';
import {
  receiptDocument,
  receiptLines,
  RECEIPT_COLUMNS,
  type ReceiptColumns,
  type ReceiptCopy,
  type ReceiptSource,
} from '../../../src/receipt/index.js';
import { KINDS, source } from '../../helpers/receipt-sources.js';

/** One model per width: 32 (58 mm), 42 (TM-T88V), 48 (80 mm). */
const MODEL_FOR: Record<ReceiptColumns, PrinterModel> = {
  32: PRINTER_MODELS.find((m) => m.columns.a === 32 && m.cutter.partial)!,
  42: PRINTER_MODELS.find((m) => m.columns.a === 42)!,
  48: PRINTER_MODELS.find((m) => m.columns.a === 48 && m.defaultCodePage === 'cp850')!,
};

/** Prints the receipt on the virtual printer of that width and returns what a person reads on the paper. */
function printed(s: ReceiptSource, copy: ReceiptCopy, columns: ReceiptColumns): string[] {
  const model = MODEL_FOR[columns];
  const doc: PrintDocument = receiptDocument(s, copy, columns);
  const p = new VirtualPrinter({ model });
  p.write(encodeDocument(doc, model));
  expect(p.receipts).toHaveLength(1);
  expect(p.unknown).toEqual([]);
  const lines = [...p.lastReceipt!.lines];
  // The feed before the cut (the last line must clear the cutter) leaves blank lines at the end.
  expect(lines.slice(-4)).toEqual(['', '', '', '']);
  return lines.slice(0, -4);
}

const CASES = KINDS.flatMap(([what, over, title]) =>
  RECEIPT_COLUMNS.flatMap((cols) =>
    (['customer', 'merchant'] as const).map((copy) => [what, cols, copy, over, title] as const),
  ),
);

describe('receipts as printed on the virtual printer (every kind, 32/42/48 columns, both copies)', () => {
  it.each(CASES)('%s, %i columns, %s copy', (_what, cols, copy, over, title) => {
    const s = source(over);
    const lines = printed(s, copy, cols);
    const text = lines.join('\n');
    // What the screen/text view shows is what the paper shows, but for the em dash the code pages lack.
    expect(lines).toEqual(receiptLines(receiptDocument(s, copy, cols), cols).map((l) => l.replace('—', '-')));
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(cols);
    expect(lines[0]!.trim()).toBe('AMBIENTE DE TESTE - SEM VALOR');
    expect(lines.at(-1)!.trim()).toBe('AMBIENTE DE TESTE - SEM VALOR');
    expect(text).toContain(copy === 'customer' ? 'VIA CLIENTE' : 'VIA ESTABELECIMENTO');
    expect(lines.map((l) => l.trim())).toContain(title);
    expect(text).toContain('PADARIA SÃO JOÃO');
    expect(text).toContain('MACEIÓ - AL');
    if (s.paymentType === 'pix') expect(text).not.toContain('CARTÃO');
    else expect(text).toMatch(/CARTÃO +541333\*{6}3511/);
    if (s.receiptInformation.some((r) => r.Field === 'PIX_E2E'))
      expect(text).toMatch(/ID PIX +E00038166202611221305abcdef12345|ID PIX\n *E00038166202611221305abcdef12345/);
    expect(text).toMatch(/AUTORIZAÇÃO +A1B2C3/);
    expect(text).toMatch(/DOC \(NSU\) +000123/);
    if (s.receiptInformation.find((r) => r.Field === 'INPUT_METHOD')?.Content)
      expect(text).toMatch(/MODO +CHIP \/ ONL/);
    expect(text).toMatch(s.kind === 'void' ? /VALOR CANCELADO +R\$ 10,00/ : /VALOR +R\$ 10,00/);
    if (s.installments === 3) {
      expect(text).toMatch(/PARCELAS +3x/);
      expect(text).toMatch(/1ª PARCELA +R\$ 3,34/);
      expect(text).toMatch(/DEMAIS 2 +R\$ 3,33/);
    }
    if (s.installments === 6) expect(text).toMatch(/PARCELAS +6x \(juros do emissor\)/);
    expect(text.includes('ASSINATURA DO CLIENTE')).toBe(s.cvm === 'signature' && copy === 'merchant');
    expect(/SENHA\s+PESSOAL/.test(text)).toBe(s.cvm === 'pin');
  });

  it('in production there is no test banner', () => {
    const lines = printed(source({ environment: 'production' }), 'customer', 48);
    expect(lines.join('\n')).not.toContain('AMBIENTE DE TESTE');
    expect(lines[0]!.trim()).toBe('PADARIA SÃO JOÃO');
  });

  it('a centred title sits where a person expects it on each width', () => {
    for (const cols of RECEIPT_COLUMNS) {
      const l = printed(source(), 'customer', cols).find((x) => x.includes('VIA CLIENTE'))!;
      expect(l).toBe(' '.repeat(Math.floor((cols - 11) / 2)) + 'VIA CLIENTE');
    }
  });

  it('the host messages print at the top and the bottom, a PAN inside them masked', () => {
    const s = source({
      printMessages: [
        { Position: 'Top', Message: 'Promoção de Natal' },
        { Position: 'Bottom', Message: 'Cartão 5413330089020011 — guarde este comprovante' },
      ],
    });
    const lines = printed(s, 'customer', 42).map((l) => l.trim());
    const top = lines.indexOf('Promoção de Natal');
    expect(top).toBeGreaterThan(0);
    expect(top).toBeLessThan(lines.indexOf('VIA CLIENTE'));
    const bottom = lines.join('\n');
    expect(bottom).toContain('541333******0011');
    expect(bottom).not.toContain('5413330089020011');
  });
});

describe('the digital copy QR', () => {
  it('prints as a QR code that decodes back to the link, on every width (native and raster)', async () => {
    const { decodeQrBitmap } = await import('../../helpers/qr-decode.js');
    const url = 'https://omnipos.invalid/r/263260010000123?v=1';
    for (const cols of RECEIPT_COLUMNS) {
      const model = MODEL_FOR[cols];
      const p = new VirtualPrinter({ model });
      p.write(encodeDocument(receiptDocument(source({ digitalCopy: url }), 'customer', cols), model));
      const r = p.lastReceipt!;
      expect(r.images).toHaveLength(1);
      expect(decodeQrBitmap(r.images[0]!.bitmap)).toBe(url);
      expect(r.lines.map((l) => l.trim())).toContain('COMPROVANTE DIGITAL');
    }
  });

  it('the HTML view embeds the QR as SVG from src/qr', async () => {
    const { renderQrSvg } = await import('../../../src/qr/render.js');
    const { receiptHtml } = await import('../../../src/receipt/index.js');
    const html = receiptHtml(receiptDocument(source({ digitalCopy: 'https://x.invalid/1' }), 'customer', 42), 42, (d) =>
      renderQrSvg(d),
    );
    expect(html).toContain('<span class="qr"><svg xmlns="http://www.w3.org/2000/svg"');
  });
});
