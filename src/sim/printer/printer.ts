import { codePageText, qrImage, QR_LEVELS, type QrLevel, type SimBitmap } from './escpos/image.js';
import { EscPosReader, type PrinterOp } from './escpos/reader.js';
import { realtimeAnswer, transmitStatusAnswer, type SimPrinterStatus } from './escpos/status.js';
import {
  DEFAULT_PRINTER_MODEL_ID,
  findPrinterModel,
  type CodePageId,
  type PrinterModel,
} from '../../../tables/printers/index.js';
import { makeReceipt, type Align, type PaperRow, type PrintedReceipt } from './paper.js';
import { renderPaperPng } from './png.js';
import { applyStyle, initialStyle, type Style } from './print-style.js';
import type { VirtualPrinterFaults, VirtualPrinterOptions } from './printer-options.js';

export type { VirtualPrinterFaults, VirtualPrinterOptions } from './printer-options.js';

/** Pieces of cut paper the virtual printer keeps for `receipts` (the oldest go first). */
export const KEPT_RECEIPTS = 500;

/**
 * A receipt printer in software: accepts a whole ESC/POS stream, reads it with its own reader
 * (escpos/, written from the ESC/POS reference, never the driver's code), prints it on virtual paper (text, barcodes, QR codes, raster images, cuts), and answers
 * DLE EOT at once and GS r in order, as a real printer does. Faults: the roll running out after N
 * lines (mid-receipt), the cover opened, offline. Bytes after a fault wait in the buffer and print
 * when the fault is cleared. Listeners get every byte the printer sends back.
 */
export class VirtualPrinter {
  readonly model: PrinterModel;
  private readonly decoder = new EscPosReader();
  private readonly queue: PrinterOp[] = [];
  private readonly replyListeners = new Set<(bytes: Uint8Array) => void>();
  private readonly cutListeners = new Set<(receipt: PrintedReceipt) => void>();
  private readonly done: PrintedReceipt[] = [];
  private rows: PaperRow[] = [];
  private line: number[] = [];
  private lineAlign: Align | undefined;
  private style: Style = initialStyle();
  private paperLeft: number;
  private readonly nearEndLines: number;
  private readonly lineMs: number;
  private readonly realtimeInData: boolean;
  private carry: number[] = [];
  private faults: Required<VirtualPrinterFaults> = { coverOpen: false, offline: false, cutterError: false };
  private qr: { data?: Uint8Array; size: number; ecc: QrLevel } = { size: 3, ecc: 'L' };
  private pausedUntilTick = false;
  private printedLines = 0;
  /** ESC p pulses received. */
  drawerKicks = 0;
  /** Commands and bytes it did not understand (a test can assert there are none). */
  readonly unknown: PrinterOp[] = [];

  constructor(opts: VirtualPrinterOptions = {}) {
    this.model = opts.model ?? findPrinterModel(DEFAULT_PRINTER_MODEL_ID)!;
    this.paperLeft = opts.paperLines ?? Number.POSITIVE_INFINITY;
    this.nearEndLines = opts.nearEndLines ?? 0;
    this.lineMs = opts.lineMs ?? 0;
    this.realtimeInData = opts.realtimeInData ?? false;
  }

  /** Subscribes to the bytes the printer sends back. */
  onReply(listener: (bytes: Uint8Array) => void): () => void {
    this.replyListeners.add(listener);
    return () => this.replyListeners.delete(listener);
  }

  /** Subscribes to each piece of paper the cutter cuts off. */
  onCut(listener: (receipt: PrintedReceipt) => void): () => void {
    this.cutListeners.add(listener);
    return () => this.cutListeners.delete(listener);
  }

  /** Bytes from the host. Real-time commands are answered before this returns. */
  write(chunk: Uint8Array): void {
    if (this.realtimeInData) this.scanRealtime(chunk);
    for (const op of this.decoder.push(chunk)) {
      if (op.kind === 'command' && op.realtime) {
        if (!this.realtimeInData) this.realtime(op.name, op.args);
      } else this.queue.push(op);
    }
    this.pump();
  }

  /** Finds `DLE EOT n` / `DLE ENQ n` in the raw bytes (across chunk ends) and answers at once. */
  private scanRealtime(chunk: Uint8Array): void {
    const bytes = [...this.carry, ...chunk];
    let i = 0;
    for (; i + 2 < bytes.length; i++) {
      if (bytes[i] === 0x10 && bytes[i + 1] === 0x04) this.realtime('realtimeStatus', [bytes[i + 2]!]);
      else if (bytes[i] === 0x10 && bytes[i + 1] === 0x05) this.realtime('realtimeRequest', [bytes[i + 2]!]);
    }
    this.carry = bytes.slice(Math.max(i, bytes.length - 2));
  }

  /** The status a DLE EOT would report now. */
  status(): SimPrinterStatus {
    const paperOut = this.paperLeft <= 0;
    const blocked = this.faults.coverOpen || paperOut || this.faults.offline || this.faults.cutterError;
    return {
      online: !blocked,
      coverOpen: this.faults.coverOpen,
      paperOut,
      paperNearEnd: paperOut || (this.nearEndLines > 0 && this.paperLeft <= this.nearEndLines),
      stoppedByPaperEnd: paperOut,
      errorOccurred: this.faults.cutterError,
      cutterError: this.faults.cutterError,
      unrecoverableError: false,
      autoRecoverableError: false,
      waitingOnlineRecovery: false,
      feedButton: false,
      drawerPin3High: false,
    };
  }

  /** Sets or clears faults; printing resumes when none is left. */
  setFaults(f: VirtualPrinterFaults): void {
    this.faults = { ...this.faults, ...f };
    this.pump();
  }

  /** A new roll with `lines` lines (default endless); printing resumes. */
  loadPaper(lines = Number.POSITIVE_INFINITY): void {
    this.paperLeft = lines;
    this.pump();
  }

  /** Lines left on the roll. */
  get paperLinesLeft(): number {
    return this.paperLeft;
  }

  /** Operations received and not yet printed (a fault holds them). */
  get pending(): number {
    return this.queue.length;
  }

  /** Lines printed since power-on. */
  get linesPrinted(): number {
    return this.printedLines;
  }

  /** Pieces of paper cut off so far. */
  get receipts(): readonly PrintedReceipt[] {
    return this.done;
  }

  /** The paper printed since the last cut, still in the printer. */
  get uncut(): PrintedReceipt {
    return makeReceipt(this.rows, 'none', this.model.columns.a);
  }

  /** A piece of paper as a PNG, one printer dot a pixel (the last one cut off by default). */
  png(receipt: PrintedReceipt | undefined = this.lastReceipt): Uint8Array {
    return renderPaperPng(receipt?.rows ?? [], this.model);
  }

  /** The most recent piece of paper cut off, if any. */
  get lastReceipt(): PrintedReceipt | undefined {
    return this.done.at(-1);
  }

  private reply(bytes: number[]): void {
    const b = Uint8Array.from(bytes);
    for (const l of this.replyListeners) l(b);
  }

  private realtime(name: string, args: readonly number[]): void {
    if (name === 'realtimeStatus') {
      const n = args[0]!;
      const answer = realtimeAnswer(n, this.status());
      if (answer !== undefined) this.reply([answer]);
    } else if (name === 'realtimeRequest' && (args[0] === 1 || args[0] === 2)) {
      this.faults.cutterError = false;
      if (args[0] === 2) this.queue.length = 0;
      this.pump();
    }
  }

  private get blocked(): boolean {
    return !this.status().online;
  }

  private pump(): void {
    while (!this.pausedUntilTick && !this.blocked && this.queue.length > 0) {
      const op = this.queue[0]!;
      const fed = this.apply(op);
      if (fed === 'stalled') return;
      this.queue.shift();
      if (fed > 0 && this.lineMs > 0) {
        this.pausedUntilTick = true;
        setTimeout(() => {
          this.pausedUntilTick = false;
          this.pump();
        }, this.lineMs * fed).unref();
        return;
      }
    }
  }

  /** Consumes `n` lines of paper, or stalls with paper out when there are not enough. */
  private feedPaper(n: number): boolean {
    if (this.paperLeft < n) {
      this.paperLeft = 0;
      return false;
    }
    this.paperLeft -= n;
    this.printedLines += n;
    return true;
  }

  private codePage(): CodePageId | undefined {
    return (Object.entries(this.model.codePages) as [CodePageId, number][]).find(
      ([, n]) => n === this.style.codeTable,
    )?.[0];
  }

  private decodeLine(bytes: number[]): string {
    const cp = this.codePage();
    if (cp) return codePageText(Uint8Array.from(bytes), cp);
    // A code table this model does not define here (PC437 at power-on): the upper half is unknown.
    return bytes.map((b) => (b < 0x80 ? String.fromCharCode(b) : '?')).join('');
  }

  /** Prints the pending text line (if `force`, even an empty one). Returns lines fed or 'stalled'. */
  private flushLine(force: boolean): number | 'stalled' {
    if (this.line.length === 0 && !force) return 0;
    if (!this.feedPaper(this.style.height)) return 'stalled';
    const s = this.style;
    this.rows.push({
      kind: 'text',
      text: this.decodeLine(this.line),
      align: this.lineAlign ?? s.align,
      width: s.width,
      height: s.height,
      bold: s.bold,
      underline: s.underline,
    });
    this.line = [];
    this.lineAlign = undefined;
    return s.height;
  }

  private printImage(bitmap: SimBitmap, qrData?: string): number | 'stalled' {
    const pending = this.flushLine(false);
    if (pending === 'stalled') return pending;
    const lines = Math.ceil(bitmap.height / 24);
    if (!this.feedPaper(lines)) return 'stalled';
    this.rows.push({ kind: 'image', bitmap, align: this.style.align, ...(qrData !== undefined ? { qrData } : {}) });
    return lines;
  }

  private cut(m: number): number | 'stalled' {
    const pending = this.flushLine(false);
    if (pending === 'stalled') return pending;
    const full = m === 0 || m === 48 || m === 65;
    const { cutter } = this.model;
    if (!cutter.full && !cutter.partial) return 0;
    const receipt = makeReceipt(this.rows, full && cutter.full ? 'full' : 'partial', this.model.columns.a);
    this.done.push(receipt);
    if (this.done.length > KEPT_RECEIPTS) this.done.splice(0, this.done.length - KEPT_RECEIPTS);
    this.rows = [];
    for (const l of this.cutListeners) l(receipt);
    return 0;
  }

  private apply(op: PrinterOp): number | 'stalled' {
    if (op.kind === 'text') {
      const max = Math.max(1, Math.floor(this.model.columns.a / this.style.width));
      let fed = 0;
      for (let i = 0; i < op.bytes.length; i++) {
        if (this.line.length >= max) {
          const r = this.flushLine(true);
          if (r === 'stalled') {
            // Keep what is not yet on paper at the head of the queue; it prints after the fault.
            this.queue[0] = { ...op, bytes: op.bytes.slice(i) };
            return r;
          }
          fed += r;
        }
        if (this.line.length === 0) this.lineAlign = this.style.align;
        this.line.push(op.bytes[i]!);
      }
      return fed;
    }
    if (op.kind !== 'command') {
      this.unknown.push(op);
      return 0;
    }
    const a = op.args;
    if (applyStyle(this.style, op.name, a)) return 0;
    switch (op.name) {
      case 'lineFeed':
        return this.flushLine(true);
      case 'feedLines': {
        const first = this.flushLine(false);
        if (first === 'stalled') return first;
        for (let i = 0; i < a[0]!; i++) {
          if (!this.feedPaper(1)) {
            this.queue[0] = { ...op, args: [a[0]! - i] };
            return 'stalled';
          }
          this.rows.push({ kind: 'text', text: '', align: 'left', width: 1, height: 1, bold: false, underline: false });
        }
        return first + a[0]!;
      }
      case 'initialize':
        this.style = initialStyle();
        this.qr = { size: 3, ecc: 'L' };
        return 0;
      case 'pulse':
        this.drawerKicks++;
        return 0;
      case 'cut':
        return this.cut(a[0]!);
      case 'transmitStatus': {
        // processed in order with the print data: the paper is there, or printing would have stopped
        const answer = transmitStatusAnswer(a[0]!, { ...this.status(), paperOut: false });
        if (answer !== undefined) this.reply([answer]);
        return 0;
      }
      case 'barcode': {
        const pending = this.flushLine(false);
        if (pending === 'stalled') return pending;
        if (!this.feedPaper(4)) return 'stalled';
        let data = Buffer.from(op.data ?? new Uint8Array()).toString('latin1');
        if (a[0] === 73) data = data.replace(/^\{[ABC]/, '').replace(/\{\{/g, '{');
        this.rows.push({ kind: 'barcode', system: a[0]!, data, align: this.style.align });
        return pending + 4;
      }
      case 'rasterImage': {
        const [, x, y] = a as [number, number, number];
        return this.printImage({ width: x * 8, height: y, bytesPerRow: x, data: op.data! });
      }
      case 'symbol':
        return this.symbol(op.data!);
      default:
        return 0;
    }
  }

  /**
   * GS ( k with cn 49 (QR Code): function 167 (fn 67) module size, 169 (fn 69) error correction,
   * 180 (fn 80, m 48) store the data, 181 (fn 81) print it; other functions and symbols are ignored.
   */
  private symbol(d: Uint8Array): number | 'stalled' {
    if (d[0] !== 49) return 0;
    const fn = d[1];
    if (fn === 67) this.qr.size = d[2] ?? 3;
    else if (fn === 69) this.qr.ecc = QR_LEVELS[d[2] as keyof typeof QR_LEVELS] ?? 'L';
    else if (fn === 80) this.qr.data = d.slice(3);
    else if (fn === 81 && this.qr.data) {
      const text = new TextDecoder().decode(this.qr.data);
      return this.printImage(qrImage(text, this.qr.size, this.qr.ecc, this.model.printWidthDots), text);
    }
    return 0;
  }
}
