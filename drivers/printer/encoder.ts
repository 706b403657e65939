import type { CodePageId, PrinterModel } from '../../tables/printers/index.js';
import { qrBitmap, type Bitmap } from './bitmap.js';
import { encodeText } from './codepage.js';
import { concatBytes, encodeCommand } from './command.js';
import { PrinterError } from './errors.js';
import { BARCODE_SYSTEM, QR_CN, QR_ECC, QR_FN, type QrEcc } from './layouts.js';

export type Align = 'left' | 'center' | 'right';

const ALIGN: Record<Align, number> = { left: 0, center: 1, right: 2 };

/** GS ( k for the QR Code (cn 49): function `fn` with its parameters. */
export function qrFunction(fn: number, params: Uint8Array | readonly number[]): Uint8Array {
  const body = Uint8Array.from([QR_CN, fn, ...params]);
  if (body.length > 0xffff)
    throw new PrinterError('PRINTER_INVALID_ARGUMENT', `qr: ${body.length - 3} data bytes exceed GS ( k`, {
      length: body.length,
    });
  return encodeCommand('symbol', [body.length], body);
}

export interface QrOptions {
  /** Module size in dots, 1-16 (default 6). */
  size?: number;
  /** Error correction (default M). */
  ecc?: QrEcc;
  /** Force the raster form even when the model prints QR natively. */
  raster?: boolean;
}

/**
 * The printer's own QR commands, in the order Epson's reference uses: model 2 (fn 165), module
 * size (fn 167), error correction (fn 169), store the data (fn 180), print (fn 181).
 * Data are bytes: the caller's string as UTF-8 (Pix and EMV codes are ASCII).
 */
export function qrNativeBytes(data: string, opts: { size?: number; ecc?: QrEcc } = {}): Uint8Array {
  const size = opts.size ?? 6;
  if (!Number.isInteger(size) || size < 1 || size > 16)
    throw new PrinterError('PRINTER_INVALID_ARGUMENT', `qr: module size must be 1..16, got ${size}`, { size });
  const bytes = new TextEncoder().encode(data);
  if (bytes.length === 0 || bytes.length > 7089)
    throw new PrinterError('PRINTER_INVALID_ARGUMENT', `qr: ${bytes.length} bytes of data (1..7089)`, {
      length: bytes.length,
    });
  return concatBytes([
    qrFunction(QR_FN.model, [50, 0]),
    qrFunction(QR_FN.moduleSize, [size]),
    qrFunction(QR_FN.errorCorrection, [QR_ECC[opts.ecc ?? 'M']]),
    qrFunction(QR_FN.store, concatBytes([Uint8Array.of(48), bytes])),
    qrFunction(QR_FN.print, [48]),
  ]);
}

/** GS v 0 m=0 (normal density) with the bitmap's rows. */
export function rasterBytes(b: Bitmap): Uint8Array {
  return encodeCommand('rasterImage', [0, b.bytesPerRow, b.height], b.data);
}

/**
 * A pure ESC/POS encoder for one printer model: each method appends commands, `encode()` returns
 * the bytes. Text goes through the selected code page (the model's default one after
 * `initialize()`); the model decides whether QR codes use GS ( k or a raster, and which cuts exist.
 */
export class EscPosEncoder {
  private parts: Uint8Array[] = [];
  private cp: CodePageId;

  constructor(
    readonly model: PrinterModel,
    opts: { codePage?: CodePageId } = {},
  ) {
    this.cp = opts.codePage ?? model.defaultCodePage;
    if (model.codePages[this.cp] === undefined)
      throw new PrinterError('PRINTER_UNSUPPORTED', `${model.id} has no code page ${this.cp}`, { model: model.id });
  }

  /** The code page text is encoded in. */
  get codePageId(): CodePageId {
    return this.cp;
  }

  private push(b: Uint8Array): this {
    this.parts.push(b);
    return this;
  }

  /** ESC @, then ESC t with the code page. */
  initialize(): this {
    return this.push(encodeCommand('initialize')).codePage(this.cp);
  }

  /** ESC t n: selects a code page the model has. */
  codePage(id: CodePageId): this {
    const n = this.model.codePages[id];
    if (n === undefined)
      throw new PrinterError('PRINTER_UNSUPPORTED', `${this.model.id} has no code page ${id}`, {
        model: this.model.id,
        codePage: id,
      });
    this.cp = id;
    return this.push(encodeCommand('codeTable', [n]));
  }

  /** Text without a line feed (LF inside the text feeds lines). */
  text(s: string): this {
    return this.push(encodeText(s, this.cp));
  }

  /** Text and a line feed. */
  line(s = ''): this {
    return this.text(s).newline();
  }

  /** LF `n` times. */
  newline(n = 1): this {
    for (let i = 0; i < n; i++) this.push(encodeCommand('lineFeed'));
    return this;
  }

  /** ESC d n: print and feed n lines. */
  feed(lines: number): this {
    return this.push(encodeCommand('feedLines', [lines]));
  }

  /** ESC a n. */
  align(a: Align): this {
    return this.push(encodeCommand('justification', [ALIGN[a]]));
  }

  /** ESC E n. */
  bold(on: boolean): this {
    return this.push(encodeCommand('emphasized', [on ? 1 : 0]));
  }

  /** ESC - n (0, 1 or 2 dots). */
  underline(dots: 0 | 1 | 2 | boolean): this {
    return this.push(encodeCommand('underline', [dots === true ? 1 : dots === false ? 0 : dots]));
  }

  /** GS B n. */
  invert(on: boolean): this {
    return this.push(encodeCommand('reverse', [on ? 1 : 0]));
  }

  /** ESC M n. */
  font(f: 'a' | 'b'): this {
    return this.push(encodeCommand('font', [f === 'a' ? 0 : 1]));
  }

  /** GS ! n: width and height multipliers 1-8. */
  size(width: number, height: number): this {
    for (const [v, what] of [
      [width, 'width'],
      [height, 'height'],
    ] as const) {
      if (!Number.isInteger(v) || v < 1 || v > 8)
        throw new PrinterError('PRINTER_INVALID_ARGUMENT', `size: ${what} must be 1..8, got ${v}`, { [what]: v });
    }
    return this.push(encodeCommand('characterSize', [((width - 1) << 4) | (height - 1)]));
  }

  /** GS h, GS w, GS H, then GS k form 2 (CODE128 gets the `{B` code set prefix). */
  barcode(
    data: string,
    symbology: 'code128' | 'ean13',
    opts: { height?: number; width?: number; hri?: 'none' | 'above' | 'below' } = {},
  ): this {
    if (!this.model.barcodes.includes(symbology))
      throw new PrinterError('PRINTER_UNSUPPORTED', `${this.model.id} does not print ${symbology}`, {
        model: this.model.id,
      });
    let body: string;
    if (symbology === 'ean13') {
      if (!/^\d{12,13}$/.test(data))
        throw new PrinterError(
          'PRINTER_INVALID_ARGUMENT',
          `ean13: expected 12 or 13 digits, got ${data.length} characters`,
          { length: data.length },
        );
      body = data;
    } else {
      if (!/^[\x20-\x7e]{1,253}$/.test(data))
        throw new PrinterError('PRINTER_INVALID_ARGUMENT', 'code128: expected 1..253 printable ASCII characters', {
          length: data.length,
        });
      body = `{B${data.replace(/\{/g, '{{')}`;
      if (body.length > 255)
        throw new PrinterError('PRINTER_INVALID_ARGUMENT', 'code128: too long once escaped', { length: body.length });
    }
    const hri = { none: 0, above: 1, below: 2 }[opts.hri ?? 'below'];
    return this.push(encodeCommand('barcodeHeight', [opts.height ?? 80]))
      .push(encodeCommand('barcodeWidth', [opts.width ?? 2]))
      .push(encodeCommand('hriPosition', [hri]))
      .push(encodeCommand('barcode', [BARCODE_SYSTEM[symbology], body.length], new TextEncoder().encode(body)));
  }

  /** A QR code: GS ( k when the model has it (unless `raster`), else a GS v 0 raster that fits the paper. */
  qr(data: string, opts: QrOptions = {}): this {
    if (this.model.qrNative && !opts.raster) return this.push(qrNativeBytes(data, opts));
    if (!this.model.raster)
      throw new PrinterError('PRINTER_UNSUPPORTED', `${this.model.id} prints neither QR codes nor raster images`, {
        model: this.model.id,
      });
    return this.image(
      qrBitmap(data, { scale: opts.size ?? 6, ecc: opts.ecc ?? 'M', maxWidth: this.model.printWidthDots }),
    );
  }

  /** GS v 0: a raster image (a logo, a QR code), as wide as the paper at most. */
  image(b: Bitmap): this {
    if (!this.model.raster)
      throw new PrinterError('PRINTER_UNSUPPORTED', `${this.model.id} prints no raster images`, {
        model: this.model.id,
      });
    if (b.width > this.model.printWidthDots)
      throw new PrinterError('PRINTER_INVALID_ARGUMENT', `image: ${b.width} dots exceed ${this.model.printWidthDots}`, {
        width: b.width,
      });
    return this.push(rasterBytes(b));
  }

  /**
   * Feeds `feedLines` (so the last line clears the cutter), then GS V: partial (m 1) by default,
   * full (m 0) when asked and the model has it; a model with a partial cutter only gets a partial
   * cut; a model without a cutter only feeds (the paper is torn off).
   */
  cut(kind: 'partial' | 'full' = 'partial', feedLines = 4): this {
    if (feedLines > 0) this.feed(feedLines);
    const { full, partial } = this.model.cutter;
    if (kind === 'full' && full) return this.push(encodeCommand('cut', [0]));
    if (partial) return this.push(encodeCommand('cut', [1]));
    if (full) return this.push(encodeCommand('cut', [0]));
    return this;
  }

  /** ESC p: pulse on drawer pin 2 (or 5), on `onMs` and off `offMs` (2 ms units, rounded). */
  drawer(pin: 2 | 5 = 2, onMs = 50, offMs = 500): this {
    if (!this.model.drawer)
      throw new PrinterError('PRINTER_UNSUPPORTED', `${this.model.id} has no drawer connector`, {
        model: this.model.id,
      });
    return this.push(
      encodeCommand('pulse', [
        pin === 2 ? 0 : 1,
        Math.min(255, Math.round(onMs / 2)),
        Math.min(255, Math.round(offMs / 2)),
      ]),
    );
  }

  /** Bytes as given (already ESC/POS). */
  raw(bytes: Uint8Array): this {
    return this.push(bytes);
  }

  /** Everything so far, as one byte array. */
  encode(): Uint8Array {
    return concatBytes(this.parts);
  }
}
