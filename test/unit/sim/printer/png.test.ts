import { describe, expect, it } from 'vitest';
import { encodeDocument, EscPosEncoder } from '../../../../drivers/printer/index.js';
import { findPrinterModel } from '../../../../tables/printers/index.js';
import { receiptDocument } from '../../../../src/receipt/index.js';
import { glyph, VirtualPrinter } from '../../../../src/sim/printer/index.js';
import { decodePng } from '../../../helpers/png-decode.js';
import { decodeQrRgba } from '../../../helpers/qr-decode.js';
import { source } from '../../../helpers/receipt-sources.js';

function inkIn(png: { width: number; rgba: Uint8ClampedArray }, y0: number, y1: number): number {
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = 0; x < png.width; x++) if (png.rgba[(y * png.width + x) * 4] === 0) n++;
  return n;
}

describe("the virtual printer's paper as PNG", () => {
  it('is as wide as the print head, a 24-dot line per text line, and its QR decodes from the picture', () => {
    const model = findPrinterModel('virtual-58')!;
    const url = 'https://omnipos.invalid/r/263260010000123';
    const p = new VirtualPrinter({ model });
    p.write(encodeDocument(receiptDocument(source({ digitalCopy: url }), 'customer', 32), model));
    const png = decodePng(p.png());
    expect(png.width).toBe(384);
    const r = p.lastReceipt!;
    const qr = r.rows.find((x) => x.kind === 'image');
    const textLines = r.rows.filter((x) => x.kind === 'text').length;
    expect(png.height).toBe(textLines * 24 + (qr?.kind === 'image' ? qr.bitmap.height : 0));
    expect(decodeQrRgba(png.rgba, png.width, png.height)).toBe(url);
    expect(inkIn(png, 0, 24)).toBeGreaterThan(100);
    const last = png.height;
    expect(inkIn(png, last - 24, last)).toBe(0);
  });

  it('accents are drawn: É has ink above the cap height, E has none; ç has its cedilla below', () => {
    const above = (g: boolean[][]): boolean => g.slice(0, 2).some((r) => r.some(Boolean));
    const below = (g: boolean[][]): boolean => g.slice(9).some((r) => r.some(Boolean));
    expect(above(glyph('É'))).toBe(true);
    expect(above(glyph('E'))).toBe(false);
    expect(below(glyph('ç'))).toBe(true);
    expect(below(glyph('c'))).toBe(false);
    expect(glyph('ã')).not.toEqual(glyph('a'));
    expect(glyph('Õ')).not.toEqual(glyph('Ó'));
  });

  it('double size text takes twice the dots each way', () => {
    const model = findPrinterModel('virtual-80')!;
    const p = new VirtualPrinter({ model });
    p.write(
      new EscPosEncoder(model).initialize().size(2, 2).line('OK').size(1, 1).line('ok').cut('partial', 0).encode(),
    );
    const png = decodePng(p.png());
    expect(png.height).toBe(48 + 24);
  });
});
