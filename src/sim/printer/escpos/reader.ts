/**
 * The virtual printer's own reading of an ESC/POS byte stream, written from Epson's public "ESC/POS
 * Command Reference" for the commands the models of tables/printers claim (text, LF, the print
 * modes, alignment, code tables, feeds, cuts, drawer pulse, bar codes, raster images, QR codes,
 * GS r, DLE EOT, DLE ENQ) — apart from the driver's encoder and decoder (drivers/printer), so a byte
 * the driver gets wrong is not read the same wrong way here. Chunks may split a command anywhere.
 */

/** What the printer read: printable bytes, a command it knows, or bytes it could not use. */
export type PrinterOp =
  | { readonly kind: 'text'; readonly bytes: Uint8Array }
  | {
      readonly kind: 'command';
      readonly name: string;
      readonly args: readonly number[];
      readonly data?: Uint8Array;
      readonly realtime: boolean;
    }
  | { readonly kind: 'unknown'; readonly bytes: Uint8Array }
  | { readonly kind: 'invalid'; readonly name: string; readonly reason: string }
  | { readonly kind: 'truncated'; readonly bytes: Uint8Array };

/** How the bytes after a command's introducer go: fixed one-byte arguments, or a shape of its own. */
type Shape =
  | { readonly name: string; readonly n: number }
  | { readonly name: string; readonly read: (b: Uint8Array, at: number) => Parsed | 'more' };
type Parsed = { readonly args: number[]; readonly data?: Uint8Array; readonly next: number; readonly bad?: string };

/** The largest data block the printer takes in one command (a 72-byte-wide raster 14,563 dots long fits). */
const MAX_DATA = 1 << 20;

const le16 = (b: Uint8Array, at: number): number => b[at]! + 256 * b[at + 1]!;

/** GS V m [n]: m 0/48 full, 1/49 partial; 65/66 (and 97/98, 103/104) feed n dots first. */
function cut(b: Uint8Array, at: number): Parsed | 'more' {
  if (at >= b.length) return 'more';
  const m = b[at]!;
  if (![65, 66, 97, 98, 103, 104].includes(m)) return { args: [m], next: at + 1 };
  return at + 1 < b.length ? { args: [m, b[at + 1]!], next: at + 2 } : 'more';
}

/** GS k m d… NUL (m 0-6), or GS k m n d1…dn (m 65-79). */
function barcode(b: Uint8Array, at: number): Parsed | 'more' {
  if (at >= b.length) return 'more';
  const m = b[at]!;
  if (m >= 65) {
    if (at + 1 >= b.length) return 'more';
    const n = b[at + 1]!;
    return at + 2 + n <= b.length ? { args: [m, n], data: b.slice(at + 2, at + 2 + n), next: at + 2 + n } : 'more';
  }
  const nul = b.indexOf(0, at + 1);
  if (nul < 0) return b.length - at > 256 ? { args: [m], next: at + 1, bad: 'no NUL within 255 bytes' } : 'more';
  return { args: [m], data: b.slice(at + 1, nul), next: nul + 1 };
}

/** A data block of `len` bytes at `from`, refused past MAX_DATA. */
function block(b: Uint8Array, args: number[], from: number, len: number): Parsed | 'more' {
  if (len > MAX_DATA) return { args, next: from, bad: `announces ${len} data bytes` };
  return from + len <= b.length ? { args, data: b.slice(from, from + len), next: from + len } : 'more';
}

/** GS v 0 m xL xH yL yH d1…dk, k = x × y. */
function raster(b: Uint8Array, at: number): Parsed | 'more' {
  if (at + 6 > b.length) return 'more';
  if (b[at] !== 0x30) return { args: [], next: at, bad: 'GS v other than GS v 0' };
  const x = le16(b, at + 2);
  const y = le16(b, at + 4);
  return block(b, [b[at + 1]!, x, y], at + 6, x * y);
}

/** GS ( k pL pH cn fn …: the 2D symbol functions; pL + pH × 256 bytes follow pH. */
function symbol(b: Uint8Array, at: number): Parsed | 'more' {
  if (at + 3 > b.length) return 'more';
  if (b[at] !== 0x6b) return { args: [], next: at, bad: 'GS ( other than GS ( k' };
  const k = le16(b, at + 1);
  return block(b, [k], at + 3, k);
}

/** ESC <byte>, GS <byte>, DLE <byte>: the commands this printer understands. */
const ESC_SHAPES: Readonly<Record<number, Shape>> = {
  0x21: { name: 'printMode', n: 1 },
  0x2d: { name: 'underline', n: 1 },
  0x32: { name: 'defaultLineSpacing', n: 0 },
  0x33: { name: 'lineSpacing', n: 1 },
  0x40: { name: 'initialize', n: 0 },
  0x45: { name: 'emphasized', n: 1 },
  0x47: { name: 'doubleStrike', n: 1 },
  0x4a: { name: 'feedDots', n: 1 },
  0x4d: { name: 'font', n: 1 },
  0x52: { name: 'internationalCharset', n: 1 },
  0x61: { name: 'justification', n: 1 },
  0x64: { name: 'feedLines', n: 1 },
  0x70: { name: 'pulse', n: 3 },
  0x74: { name: 'codeTable', n: 1 },
  0x7b: { name: 'upsideDown', n: 1 },
};
const GS_SHAPES: Readonly<Record<number, Shape>> = {
  0x21: { name: 'characterSize', n: 1 },
  0x42: { name: 'reverse', n: 1 },
  0x48: { name: 'hriPosition', n: 1 },
  0x4c: { name: 'leftMargin', n: 2 },
  0x56: { name: 'cut', read: cut },
  0x57: { name: 'printAreaWidth', n: 2 },
  0x66: { name: 'hriFont', n: 1 },
  0x68: { name: 'barcodeHeight', n: 1 },
  0x6b: { name: 'barcode', read: barcode },
  0x72: { name: 'transmitStatus', n: 1 },
  0x76: { name: 'rasterImage', read: raster },
  0x77: { name: 'barcodeWidth', n: 1 },
  0x28: { name: 'symbol', read: symbol },
};
const DLE_SHAPES: Readonly<Record<number, Shape>> = {
  0x04: { name: 'realtimeStatus', n: 1 },
  0x05: { name: 'realtimeRequest', n: 1 },
};
const SINGLE: Readonly<Record<number, string>> = { 0x0a: 'lineFeed', 0x09: 'tab', 0x0d: 'carriageReturn' };
const TABLES: Readonly<Record<number, Readonly<Record<number, Shape>>>> = {
  0x1b: ESC_SHAPES,
  0x1d: GS_SHAPES,
  0x10: DLE_SHAPES,
};
/** GS L and GS W take nL nH: one 16-bit argument. */
const WIDE = new Set(['leftMargin', 'printAreaWidth']);

/** Reads one op at `pos`, or 'more' when the command is not whole yet. */
function readOp(b: Uint8Array, pos: number): { op: PrinterOp; next: number } | 'more' {
  const first = b[pos]!;
  if (first >= 0x20) {
    let end = pos;
    while (end < b.length && b[end]! >= 0x20) end++;
    return { op: { kind: 'text', bytes: b.slice(pos, end) }, next: end };
  }
  const single = SINGLE[first];
  if (single) return { op: { kind: 'command', name: single, args: [], realtime: false }, next: pos + 1 };
  const table = TABLES[first];
  if (!table) return { op: { kind: 'unknown', bytes: b.slice(pos, pos + 1) }, next: pos + 1 };
  if (pos + 1 >= b.length) return 'more';
  const shape = table[b[pos + 1]!];
  if (!shape) return { op: { kind: 'unknown', bytes: b.slice(pos, pos + 2) }, next: pos + 2 };
  const at = pos + 2;
  const realtime = first === 0x10;
  if ('n' in shape) {
    if (at + shape.n > b.length) return 'more';
    const args = WIDE.has(shape.name) ? [le16(b, at)] : [...b.slice(at, at + shape.n)];
    return { op: { kind: 'command', name: shape.name, args, realtime }, next: at + shape.n };
  }
  const r = shape.read(b, at);
  if (r === 'more') return 'more';
  if (r.bad !== undefined) return { op: { kind: 'invalid', name: shape.name, reason: r.bad }, next: r.next };
  const op: PrinterOp = {
    kind: 'command',
    name: shape.name,
    args: r.args,
    realtime,
    ...(r.data ? { data: r.data } : {}),
  };
  return { op, next: r.next };
}

/** The stream as it arrives: `push` gives the ops complete so far, `end` what is left. Never throws. */
export class EscPosReader {
  private buf = new Uint8Array(0);

  push(chunk: Uint8Array): PrinterOp[] {
    const b = new Uint8Array(this.buf.length + chunk.length);
    b.set(this.buf);
    b.set(chunk, this.buf.length);
    const ops: PrinterOp[] = [];
    let pos = 0;
    while (pos < b.length) {
      const r = readOp(b, pos);
      if (r === 'more') break;
      ops.push(r.op);
      pos = r.next;
    }
    this.buf = b.slice(pos);
    return ops;
  }

  end(): PrinterOp[] {
    const left = this.buf;
    this.buf = new Uint8Array(0);
    return left.length ? [{ kind: 'truncated', bytes: left }] : [];
  }
}
