import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  encodeCommand,
  EscPosEncoder,
  decodeRealtimeStatus,
  isRealtimeReply,
  isTransmitStatusReply,
  type PrinterStatus,
} from '../../../../drivers/printer/index.js';
import { findPrinterModel } from '../../../../tables/printers/index.js';
import { VirtualPrinter } from '../../../../src/sim/printer/index.js';
import { decodeQrBitmap } from '../../../helpers/qr-decode.js';
import { fcSeed } from '../../../helpers/escpos-sources.js';
import { bitmapFrom } from '../../../../drivers/printer/index.js';

const seed = fcSeed('virtual printer');

const PIX =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

function statusOf(p: VirtualPrinter): PrinterStatus {
  const replies: number[] = [];
  const off = p.onReply((b) => replies.push(...b));
  for (const n of [1, 2, 3, 4]) p.write(encodeCommand('realtimeStatus', [n]));
  off();
  expect(replies.every(isRealtimeReply)).toBe(true);
  return decodeRealtimeStatus(...(replies as [number, number, number, number]));
}

describe('virtual printer', () => {
  it('prints what the encoder sent: accents in the selected code page, alignment, a cut', () => {
    for (const [id, cp] of [
      ['virtual-80', 'cp860'],
      ['epson-tm-t88v', 'cp850'],
      ['virtual-58', 'cp860'],
    ] as const) {
      const model = findPrinterModel(id)!;
      const p = new VirtualPrinter({ model });
      p.write(
        new EscPosEncoder(model, { codePage: cp })
          .initialize()
          .align('center')
          .line('Crédito à vista')
          .align('left')
          .line('Débito – ção, ã, õ, ê, Ú, º')
          .align('right')
          .line('R$ 10,00')
          .cut()
          .encode(),
      );
      const r = p.lastReceipt!;
      const cols = model.columns.a;
      expect(r.lines[0]).toBe(' '.repeat(Math.floor((cols - 15) / 2)) + 'Crédito à vista');
      expect(r.lines[1]).toBe('Débito - ção, ã, õ, ê, Ú, º');
      expect(r.lines[2]).toBe(' '.repeat(cols - 8) + 'R$ 10,00');
      expect(r.cut).toBe('partial');
      expect(p.unknown).toEqual([]);
    }
  });

  it('without ESC t the upper half is not Portuguese: a missing code page shows on paper', () => {
    const p = new VirtualPrinter();
    p.write(Uint8Array.of(0x1b, 0x40, 0x43, 0x72, 0x82, 0x64, 0x0a));
    expect(p.uncut.lines).toEqual(['Cr?d']);
  });

  it('a QR code printed with GS ( k and one printed as a raster both decode back to the exact string', () => {
    const native = new VirtualPrinter({ model: findPrinterModel('virtual-80')! });
    native.write(new EscPosEncoder(native.model).initialize().align('center').qr(PIX, { size: 4 }).cut().encode());
    const raster = new VirtualPrinter({ model: findPrinterModel('virtual-58')! });
    raster.write(new EscPosEncoder(raster.model).initialize().qr(PIX, { size: 4 }).cut().encode());
    const a = native.lastReceipt!.images[0]!;
    const b = raster.lastReceipt!.images[0]!;
    expect(a.qrData).toBe(PIX);
    expect(b.qrData).toBeUndefined();
    expect(decodeQrBitmap(a.bitmap)).toBe(PIX);
    expect(decodeQrBitmap(b.bitmap)).toBe(PIX);
    expect(native.lastReceipt!.lines).toContain(' '.repeat(19) + '[QR Code]');
  });

  it('bar codes print their human-readable text', () => {
    const p = new VirtualPrinter();
    p.write(new EscPosEncoder(p.model).initialize().barcode('NSU{123', 'code128').cut().encode());
    expect(p.lastReceipt!.barcodes).toEqual([{ system: 73, data: 'NSU{123' }]);
  });

  it('paper runs out mid-receipt: printing stops, status says paper out, the rest prints after a new roll', () => {
    const p = new VirtualPrinter({ paperLines: 3 });
    const e = new EscPosEncoder(p.model).initialize();
    for (let i = 1; i <= 6; i++) e.line(`linha ${i}`);
    p.write(e.cut('partial', 0).encode());
    expect(p.receipts).toHaveLength(0);
    expect(p.uncut.lines).toEqual(['linha 1', 'linha 2', 'linha 3']);
    const s = statusOf(p);
    expect(s).toMatchObject({ paperOut: true, online: false, stoppedByPaperEnd: true });
    p.loadPaper();
    expect(p.lastReceipt!.lines).toEqual(['linha 1', 'linha 2', 'linha 3', 'linha 4', 'linha 5', 'linha 6']);
    expect(statusOf(p)).toMatchObject({ paperOut: false, online: true });
  });

  it('cover open holds the data; GS r is answered only once the data before it is printed', () => {
    const p = new VirtualPrinter();
    const replies: number[] = [];
    p.onReply((b) => replies.push(...b));
    p.setFaults({ coverOpen: true });
    p.write(
      new EscPosEncoder(p.model)
        .initialize()
        .line('oi')
        .cut()
        .raw(encodeCommand('transmitStatus', [1]))
        .encode(),
    );
    expect(replies).toEqual([]);
    expect(statusOf(p)).toMatchObject({ coverOpen: true, online: false });
    expect(replies.filter(isTransmitStatusReply)).toEqual([]);
    p.setFaults({ coverOpen: false });
    expect(replies.filter(isTransmitStatusReply)).toEqual([0x00]);
    expect(p.lastReceipt!.lines).toEqual(['oi', '', '', '', '']);
  });

  it('near end shows before the roll runs out; offline and cutter error are reported', () => {
    const p = new VirtualPrinter({ paperLines: 10, nearEndLines: 5 });
    expect(statusOf(p).paperNearEnd).toBe(false);
    p.write(new EscPosEncoder(p.model).initialize().feed(6).encode());
    expect(statusOf(p)).toMatchObject({ paperNearEnd: true, paperOut: false, online: true });
    p.setFaults({ offline: true });
    expect(statusOf(p).online).toBe(false);
    p.setFaults({ offline: false, cutterError: true });
    expect(statusOf(p)).toMatchObject({ cutterError: true, errorOccurred: true });
    p.write(encodeCommand('realtimeRequest', [1]));
    expect(statusOf(p).cutterError).toBe(false);
  });

  it('long lines wrap at the model width; double width halves it', () => {
    const p = new VirtualPrinter({ model: findPrinterModel('virtual-58')! });
    p.write(
      new EscPosEncoder(p.model).initialize().line('x'.repeat(40)).size(2, 1).line('y'.repeat(20)).cut().encode(),
    );
    expect(p.lastReceipt!.lines.slice(0, 4)).toEqual(['x'.repeat(32), 'x'.repeat(8), 'y'.repeat(16), 'y'.repeat(4)]);
  });

  it('a logo goes as a GS v 0 raster and lands on paper dot for dot', () => {
    const logo = bitmapFrom(120, 48, (x, y) => (x + y) % 7 === 0 || (x > 40 && x < 80 && y > 10 && y < 38));
    const p = new VirtualPrinter();
    p.write(new EscPosEncoder(p.model).initialize().align('center').image(logo).line('LOJA').cut().encode());
    const img = p.lastReceipt!.images[0]!.bitmap;
    expect([img.width, img.height]).toEqual([120, 48]);
    expect(Buffer.from(img.data).equals(Buffer.from(logo.data))).toBe(true);
    expect(p.lastReceipt!.lines[0]).toBe(' '.repeat(Math.floor((48 - 16) / 2)) + '[imagem 120x48]');
  });

  it('takes any byte stream without throwing, and every byte it sends back is a well-formed status (fuzz)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 30 }), (noise, paper) => {
        const p = new VirtualPrinter({ paperLines: paper });
        const replies: number[] = [];
        p.onReply((b) => replies.push(...b));
        p.write(noise);
        p.write(Uint8Array.of(0x10, 0x04, 0x01));
        for (const b of replies) expect(isRealtimeReply(b) || isTransmitStatusReply(b)).toBe(true);
      }),
      { numRuns: 1000, seed },
    );
  });
});
