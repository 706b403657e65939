import { describe, expect, it } from 'vitest';
import {
  encodeCommand,
  EscPosEncoder,
  qrNativeBytes,
  rasterBytes,
  blankBitmap,
  setDot,
} from '../../../../drivers/printer/index.js';
import { findPrinterModel } from '../../../../tables/printers/index.js';
import { hex, SRC } from '../../../helpers/escpos-sources.js';

const tmT88v = findPrinterModel('epson-tm-t88v')!;
const tmT20 = findPrinterModel('epson-tm-t20')!;
const noCutter = findPrinterModel('generic-58mm')!;

/** [what, bytes we produce, bytes the reference shows, where] */
const ROWS: [string, () => Uint8Array, string, string][] = [
  ['ESC @ initialize', () => encodeCommand('initialize'), '1B 40', SRC.ITHACA_ESC_T],
  [
    'ESC t 3 selects PC860 (Portuguese)',
    () => new EscPosEncoder(tmT88v, { codePage: 'cp860' }).codePage('cp860').encode(),
    '1B 74 03',
    SRC.ITHACA_ESC_T,
  ],
  [
    'ESC t 2 selects PC850 (Multilingual)',
    () => new EscPosEncoder(tmT88v).codePage('cp850').encode(),
    '1B 74 02',
    SRC.ITHACA_ESC_T,
  ],
  [
    'ESC ! 0x38: emphasized + double height + double width',
    () => encodeCommand('printMode', [0x08 | 0x10 | 0x20]),
    '1B 21 38',
    SRC.ITHACA_ESC_T,
  ],
  ['GS V 0 full cut', () => new EscPosEncoder(tmT88v).cut('full', 0).encode(), '1D 56 00', SRC.EPSON_GS_V],
  ['GS V 1 partial cut', () => new EscPosEncoder(tmT88v).cut('partial', 0).encode(), '1D 56 01', SRC.EPSON_GS_V],
  ['GS V 66 0: feed to the cutter and cut partially', () => encodeCommand('cut', [66, 0]), '1D 56 42 00', SRC.NCR_GS_V],
  [
    'GS V 65 3: feed 3 units past the cutter and cut fully',
    () => encodeCommand('cut', [65, 3]),
    '1D 56 41 03',
    SRC.NCR_GS_V,
  ],
  [
    'ESC p 0 25 250: drawer pin 2, 50 ms on, 500 ms off',
    () => new EscPosEncoder(tmT88v).drawer(2, 50, 500).encode(),
    '1B 70 00 19 FA',
    SRC.CBM_ESC_P,
  ],
  [
    'ESC p 1 ...: drawer pin 5',
    () => new EscPosEncoder(tmT88v).drawer(5, 100, 200).encode(),
    '1B 70 01 32 64',
    SRC.CBM_ESC_P,
  ],
  [
    'GS ( k fn 181: print the stored QR',
    () => encodeCommand('symbol', [3], Uint8Array.of(0x31, 0x51, 0x30)),
    '1D 28 6B 03 00 31 51 30',
    SRC.EPSON_FN181,
  ],
  [
    'GS ( k fn 180: store "ABC" (pL = 3 + 3)',
    () => encodeCommand('symbol', [6], Uint8Array.of(0x31, 0x50, 0x30, 0x41, 0x42, 0x43)),
    '1D 28 6B 06 00 31 50 30 41 42 43',
    SRC.EPSON_FN180,
  ],
  ['GS h 80 bar code height', () => encodeCommand('barcodeHeight', [80]), '1D 68 50', SRC.ITHACA_GS_K],
  ['GS w 2 bar code width', () => encodeCommand('barcodeWidth', [2]), '1D 77 02', SRC.ITHACA_GS_K],
  [
    'GS k 67 12 EAN-13 (form 2)',
    () => encodeCommand('barcode', [67, 12], new TextEncoder().encode('789123456789')),
    '1D 6B 43 0C 37 38 39 31 32 33 34 35 36 37 38 39',
    SRC.ITHACA_GS_K,
  ],
  ['DLE EOT 1 printer status', () => encodeCommand('realtimeStatus', [1]), '10 04 01', SRC.EPSON_DLE_EOT_12],
  ['DLE EOT 4 roll paper sensor', () => encodeCommand('realtimeStatus', [4]), '10 04 04', SRC.EPSON_DLE_EOT_34],
  [
    'GS r 1 paper sensor status (in order with the data)',
    () => encodeCommand('transmitStatus', [1]),
    '1D 72 01',
    SRC.EPSON_GS_R,
  ],
  [
    'GS v 0 m=0, 2 bytes × 2 dots',
    () => {
      const b = blankBitmap(16, 2);
      setDot(b, 0, 0);
      setDot(b, 15, 1);
      return rasterBytes(b);
    },
    '1D 76 30 00 02 00 02 00 80 00 00 01',
    SRC.GS_V_0,
  ],
];

describe('ESC/POS commands, byte for byte against the published references', () => {
  it.each(ROWS)('%s', (_what, make, expected, _source) => {
    expect(hex(make())).toBe(expected);
  });

  it('the QR sequence: model 2, size, error correction, store, print (fn 165, 167, 169, 180, 181)', () => {
    // Layouts: fn 165 and 167 (SRC.CITIZEN_FN165_167), 167 and 169 (SRC.HPRT_FN167_169),
    // 180 (SRC.EPSON_FN180) and 181 (SRC.EPSON_FN181).
    expect(hex(qrNativeBytes('PIX', { size: 5, ecc: 'Q' }))).toBe(
      [
        '1D 28 6B 04 00 31 41 32 00',
        '1D 28 6B 03 00 31 43 05',
        '1D 28 6B 03 00 31 45 32',
        '1D 28 6B 06 00 31 50 30 50 49 58',
        '1D 28 6B 03 00 31 51 30',
      ].join(' '),
    );
  });

  it('GS ( k carries a long payload with pL and pH (300 bytes of data: k = 303 = 0x012F)', () => {
    const b = qrNativeBytes('1'.repeat(300));
    // fn 165 (9 bytes), 167 (8) and 169 (8) come first: fn 180 starts at byte 25.
    expect(hex(b.slice(25, 33))).toBe('1D 28 6B 2F 01 31 50 30');
    expect(b.length).toBe(25 + 5 + 303 + 8);
  });

  it('CODE128 data start with the code set B selector "{B" (GS k 73)', () => {
    const bytes = new EscPosEncoder(tmT20)
      .barcode('NSU 123', 'code128', { height: 60, width: 2, hri: 'below' })
      .encode();
    expect(hex(bytes)).toBe('1D 68 3C 1D 77 02 1D 48 02 1D 6B 49 09 7B 42 4E 53 55 20 31 32 33');
  });

  it('a model without a full cutter gets the partial cut; one without a cutter only feeds', () => {
    expect(hex(new EscPosEncoder(tmT20).cut('full', 0).encode())).toBe('1D 56 01');
    expect(hex(new EscPosEncoder(noCutter).cut('full', 3).encode())).toBe('1B 64 03');
  });

  it('a QR code on a model without GS ( k goes as one GS v 0 raster that fits the paper', () => {
    const bytes = new EscPosEncoder(noCutter).qr('00020126580014br.gov.bcb.pix').encode();
    expect(hex(bytes.slice(0, 4))).toBe('1D 76 30 00');
    const xBytes = bytes[4]! | (bytes[5]! << 8);
    const yDots = bytes[6]! | (bytes[7]! << 8);
    expect(xBytes * 8).toBeLessThanOrEqual(noCutter.printWidthDots);
    expect(bytes.length).toBe(8 + xBytes * yDots);
  });

  it('refuses what a command cannot carry, with a typed error', () => {
    expect(() => encodeCommand('justification', [256])).toThrowError(
      expect.objectContaining({ code: 'PRINTER_INVALID_ARGUMENT' }) as Error,
    );
    expect(() => encodeCommand('symbol', [5], Uint8Array.of(1))).toThrowError(
      expect.objectContaining({ code: 'PRINTER_INVALID_ARGUMENT' }) as Error,
    );
    expect(() => new EscPosEncoder(noCutter).drawer()).toThrowError(
      expect.objectContaining({ code: 'PRINTER_UNSUPPORTED' }) as Error,
    );
    expect(() => new EscPosEncoder(tmT20).barcode('12', 'ean13')).toThrowError(
      expect.objectContaining({ code: 'PRINTER_INVALID_ARGUMENT' }) as Error,
    );
    expect(() => qrNativeBytes('x', { size: 17 })).toThrowError(
      expect.objectContaining({ code: 'PRINTER_INVALID_ARGUMENT' }) as Error,
    );
  });
});
