/**
 * ESC/POS command layouts as data: one table that the encoder (encodeCommand) and the decoder
 * (EscPosDecoder) both walk. Byte values and parameter ranges are Epson's ESC/POS command
 * reference (the per-command rows of test/unit/drivers/printer/encoder.test.ts say where each was read).
 */
export const LF = 0x0a;
export const HT = 0x09;
export const CR = 0x0d;
export const DLE = 0x10;
export const EOT = 0x04;
export const ENQ = 0x05;
export const ESC = 0x1b;
export const GS = 0x1d;

/** A parameter after the prefix: one byte, or two bytes little-endian (nL nH). */
export type ParamKind = 'u8' | 'u16';

export interface CommandLayout {
  /** The bytes that name the command. */
  readonly prefix: readonly number[];
  /** Fixed parameters after the prefix. */
  readonly params: readonly ParamKind[];
  /** Parameters that follow only for some values of the first ones (GS V m n, GS k m n). */
  readonly more?: (args: readonly number[]) => readonly ParamKind[];
  /**
   * Length of the data block after the parameters, from their values; `'nul'` for data ended by
   * a NUL byte (GS k, form 1). Absent: no data.
   */
  readonly data?: (args: readonly number[]) => number | 'nul';
  /** Answered at once even while the printer is busy or stopped (DLE EOT, DLE ENQ). */
  readonly realtime?: boolean;
}

export const LAYOUTS = {
  /** LF: print and line feed. */
  lineFeed: { prefix: [LF], params: [] },
  /** HT: horizontal tab. */
  tab: { prefix: [HT], params: [] },
  /** CR: carriage return (ignored when auto line feed is off, as on every model here). */
  carriageReturn: { prefix: [CR], params: [] },
  /** ESC @: initialize printer (clears modes, keeps the buffer's data). */
  initialize: { prefix: [ESC, 0x40], params: [] },
  /** ESC ! n: print mode (bit0 font B, bit3 emphasized, bit4 double height, bit5 double width, bit7 underline). */
  printMode: { prefix: [ESC, 0x21], params: ['u8'] },
  /** ESC - n: underline 0 off, 1 one dot, 2 two dots (48-50 too). */
  underline: { prefix: [ESC, 0x2d], params: ['u8'] },
  /** ESC 2: default line spacing. */
  defaultLineSpacing: { prefix: [ESC, 0x32], params: [] },
  /** ESC 3 n: line spacing n dots. */
  lineSpacing: { prefix: [ESC, 0x33], params: ['u8'] },
  /** ESC E n: emphasized (bold) on when bit0 is 1. */
  emphasized: { prefix: [ESC, 0x45], params: ['u8'] },
  /** ESC G n: double-strike on when bit0 is 1. */
  doubleStrike: { prefix: [ESC, 0x47], params: ['u8'] },
  /** ESC J n: print and feed n dots. */
  feedDots: { prefix: [ESC, 0x4a], params: ['u8'] },
  /** ESC M n: font 0 A, 1 B (48, 49 too). */
  font: { prefix: [ESC, 0x4d], params: ['u8'] },
  /** ESC R n: international character set. */
  internationalCharset: { prefix: [ESC, 0x52], params: ['u8'] },
  /** ESC a n: justification 0 left, 1 center, 2 right (48-50 too). */
  justification: { prefix: [ESC, 0x61], params: ['u8'] },
  /** ESC d n: print and feed n lines. */
  feedLines: { prefix: [ESC, 0x64], params: ['u8'] },
  /** ESC p m t1 t2: pulse to drawer connector pin 2 (m 0/48) or 5 (m 1/49), on t1×2 ms, off t2×2 ms. */
  pulse: { prefix: [ESC, 0x70], params: ['u8', 'u8', 'u8'] },
  /** ESC t n: character code table (2 PC850, 3 PC860 on Epson). */
  codeTable: { prefix: [ESC, 0x74], params: ['u8'] },
  /** ESC { n: upside-down on when bit0 is 1. */
  upsideDown: { prefix: [ESC, 0x7b], params: ['u8'] },
  /** GS ! n: character size, width multiplier in bits 4-6 and height in bits 0-2, each minus one. */
  characterSize: { prefix: [GS, 0x21], params: ['u8'] },
  /** GS B n: white/black reverse on when bit0 is 1. */
  reverse: { prefix: [GS, 0x42], params: ['u8'] },
  /** GS H n: HRI position 0 none, 1 above, 2 below, 3 both. */
  hriPosition: { prefix: [GS, 0x48], params: ['u8'] },
  /** GS L nL nH: left margin, dots. */
  leftMargin: { prefix: [GS, 0x4c], params: ['u16'] },
  /** GS V m [n]: cut. m 0/48 full, 1/49 partial; m 65 full and 66 partial after feeding n dots. */
  cut: {
    prefix: [GS, 0x56],
    params: ['u8'],
    more: (a) =>
      a[0] === 65 || a[0] === 66 || a[0] === 97 || a[0] === 98 || a[0] === 103 || a[0] === 104 ? ['u8'] : [],
  },
  /** GS W nL nH: print area width, dots. */
  printAreaWidth: { prefix: [GS, 0x57], params: ['u16'] },
  /** GS f n: HRI font. */
  hriFont: { prefix: [GS, 0x66], params: ['u8'] },
  /** GS h n: bar code height, dots. */
  barcodeHeight: { prefix: [GS, 0x68], params: ['u8'] },
  /** GS k m d1..dk NUL (m 0-6) or GS k m n d1..dn (m 65-79): print bar code. */
  barcode: {
    prefix: [GS, 0x6b],
    params: ['u8'],
    more: (a) => (a[0]! >= 65 ? ['u8'] : []),
    data: (a) => (a[0]! >= 65 ? a[1]! : 'nul'),
  },
  /** GS r n: transmit status (1/49 paper sensor, 2/50 drawer); processed in order with the print data. */
  transmitStatus: { prefix: [GS, 0x72], params: ['u8'] },
  /** GS v 0 m xL xH yL yH d1..dk: raster bit image, x bytes wide, y dots high, k = x × y. */
  rasterImage: { prefix: [GS, 0x76, 0x30], params: ['u8', 'u16', 'u16'], data: (a) => a[1]! * a[2]! },
  /** GS w n: bar code module width. */
  barcodeWidth: { prefix: [GS, 0x77], params: ['u8'] },
  /** GS ( k pL pH cn fn [parameters]: 2D symbols (cn 49 = QR Code); k = pL + pH × 256 bytes follow pH. */
  symbol: { prefix: [GS, 0x28, 0x6b], params: ['u16'], data: (a) => a[0]! },
  /** DLE EOT n: real-time status (1 printer, 2 offline cause, 3 error cause, 4 roll paper sensor). */
  realtimeStatus: { prefix: [DLE, EOT], params: ['u8'], realtime: true },
  /** DLE ENQ n: real-time request (1 recover from error and restart, 2 recover clearing the buffers). */
  realtimeRequest: { prefix: [DLE, ENQ], params: ['u8'], realtime: true },
} as const satisfies Record<string, CommandLayout>;

export type CommandName = keyof typeof LAYOUTS;

/** QR Code functions of GS ( k with cn = 49, by fn. */
export const QR_FN = {
  /** Function 165: select the model (n1 49 model 1, 50 model 2, 51 micro QR; n2 0). */
  model: 65,
  /** Function 167: module size in dots (1-16). */
  moduleSize: 67,
  /** Function 169: error correction level (48 L, 49 M, 50 Q, 51 H). */
  errorCorrection: 69,
  /** Function 180: store the data (m 48, then the data). */
  store: 80,
  /** Function 181: print the stored symbol (m 48). */
  print: 81,
  /** Function 182: transmit the size of the stored symbol (m 48). */
  transmitSize: 82,
} as const;

/** Error correction levels of Function 169. */
export const QR_ECC = { L: 48, M: 49, Q: 50, H: 51 } as const;
export type QrEcc = keyof typeof QR_ECC;

/** The QR Code's cn in GS ( k. */
export const QR_CN = 49;

/** Bar code systems of GS k form 2. */
export const BARCODE_SYSTEM = { upca: 65, ean13: 67, ean8: 68, code39: 69, itf: 70, code128: 73 } as const;
