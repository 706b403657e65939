import type { PrinterModel } from '../../tables/printers/index.js';
import type { Transport } from '../transport/index.js';
import { concatBytes, encodeCommand } from './command.js';
import { PrinterError } from './errors.js';
import {
  conditionOf,
  decodeRealtimeStatus,
  decodeTransmitPaperStatus,
  isRealtimeReply,
  isTransmitStatusReply,
  statusEvents,
  type PrinterCondition,
  type PrinterEvent,
  type PrinterStatus,
} from './status.js';

/** Options of one printer; times in milliseconds. */
export interface EscPosPrinterOptions {
  /** Not yet opened; the driver opens and closes it. */
  transport: Transport;
  model: PrinterModel;
  /** How often status is polled while a receipt prints (default 200, 20..5000). */
  pollMs?: number;
  /** How long to wait for each DLE EOT reply (default 1000, 50..10000). */
  replyTimeoutMs?: number;
  /** How long a receipt may take from the first byte to the printer's answer after the cut (default 60000). */
  printTimeoutMs?: number;
  /** Diagnostics; never receives print data. */
  log?: (event: string, detail: Readonly<Record<string, unknown>>) => void;
}

/**
 * What became of a receipt. `printed`: the printer answered after the cut and reported idle and
 * error-free. `not-printed`: nothing was sent (the printer was not ready). `uncertain`: bytes
 * were sent and then something went wrong — the cashier is asked whether the receipt came out.
 */
export type PrintResult =
  | { readonly outcome: 'printed'; readonly status: PrinterStatus }
  | {
      readonly outcome: 'not-printed';
      readonly reason: Exclude<PrinterCondition, 'idle'> | 'no-answer' | 'disconnected';
      readonly status?: PrinterStatus;
    }
  | {
      readonly outcome: 'uncertain';
      readonly reason: Exclude<PrinterCondition, 'idle'> | 'no-answer' | 'disconnected' | 'timeout';
      readonly status?: PrinterStatus;
    };

type Waiter = { resolve: (b: number) => void; reject: (e: unknown) => void; timer: NodeJS.Timeout };

function range(v: number | undefined, def: number, min: number, max: number, name: string): number {
  const x = v ?? def;
  if (!Number.isFinite(x) || x < min || x > max)
    throw new PrinterError('PRINTER_INVALID_ARGUMENT', `${name} must be ${min}..${max} ms, got ${x}`, { option: name });
  return x;
}

/**
 * An ESC/POS printer on any transport (TCP 9100, serial, USB). It reads every byte the printer
 * sends and sorts it: DLE EOT replies (`0xx1xx10`) answer the pending status request; GS r answers
 * (bit 4 off) mark that the printer has processed everything sent before them. Requests are
 * serialised; status is polled while a receipt prints and each change is emitted as a typed event.
 */
export class EscPosPrinter {
  private readonly pollMs: number;
  private readonly replyTimeoutMs: number;
  private readonly printTimeoutMs: number;
  private readonly listeners = new Set<(e: PrinterEvent) => void>();
  private replyWaiter: Waiter | undefined;
  private processedWaiter: ((b: number) => void) | undefined;
  private last: PrinterStatus | undefined;
  private lock: Promise<unknown> = Promise.resolve();
  private reading: Promise<void> | undefined;
  private lost: PrinterError | undefined;
  private closed = false;
  private stopMonitor: (() => void) | undefined;

  constructor(private readonly opts: EscPosPrinterOptions) {
    this.pollMs = range(opts.pollMs, 200, 20, 5000, 'pollMs');
    this.replyTimeoutMs = range(opts.replyTimeoutMs, 1000, 50, 10000, 'replyTimeoutMs');
    this.printTimeoutMs = range(opts.printTimeoutMs, 60000, 100, 600000, 'printTimeoutMs');
  }

  get model(): PrinterModel {
    return this.opts.model;
  }

  /** The last status read, if any. */
  get lastStatus(): PrinterStatus | undefined {
    return this.last;
  }

  /** Subscribes to status events; returns the unsubscribe function. */
  onEvent(listener: (e: PrinterEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async open(): Promise<void> {
    try {
      await this.opts.transport.open();
    } catch (e) {
      throw new PrinterError(
        'PRINTER_NOT_FOUND',
        `${this.opts.transport.description}: ${(e as Error).message}`,
        { transport: this.opts.transport.description },
        { cause: e },
      );
    }
    this.lost = undefined;
    this.closed = false;
    this.reading = this.readLoop();
  }

  async close(): Promise<void> {
    this.stopMonitor?.();
    this.closed = true;
    await this.opts.transport.close();
    await this.reading;
  }

  /**
   * After the link was lost (a dropped connection, an unplugged cable), the next request opens the
   * transport again once; if that fails the request fails with PRINTER_DISCONNECTED.
   */
  private async reopenIfLost(): Promise<void> {
    if (!this.lost || this.closed) return;
    await this.opts.transport.close().catch(() => undefined);
    await this.reading;
    try {
      await this.open();
    } catch (e) {
      throw new PrinterError(
        'PRINTER_DISCONNECTED',
        `${this.opts.transport.description}: lost and not reopened`,
        {},
        { cause: e },
      );
    }
    this.opts.log?.('printer.reopened', { transport: this.opts.transport.description });
  }

  /** The four real-time statuses (DLE EOT 1..4), read one after the other. */
  status(): Promise<PrinterStatus> {
    return this.exclusive(async () => {
      await this.reopenIfLost();
      return this.queryStatus();
    });
  }

  /**
   * Polls status every `intervalMs` between requests, so paper running low, an open cover or a
   * lost link show up as events while nothing prints (a kiosk's health, the paper check before a
   * card is read). Returns the function that stops it; `close()` stops it too.
   */
  monitor(intervalMs = 2000): () => void {
    this.stopMonitor?.();
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const tick = (): void => {
      timer = setTimeout(() => {
        this.status()
          .catch(() => undefined)
          .finally(() => {
            if (!stopped) tick();
          });
      }, intervalMs);
      timer.unref();
    };
    tick();
    const stop = (): void => {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (this.stopMonitor === stop) this.stopMonitor = undefined;
    };
    this.stopMonitor = stop;
    return stop;
  }

  /**
   * Sends a receipt and follows it until the printer has printed it, or says why it cannot tell.
   * Status is checked first (nothing is sent to a printer that is not ready); the receipt goes
   * with `GS r 1` behind it, which the printer answers only once everything before it (the cut
   * included) is processed. Polling starts one interval after the write has drained, or at once
   * when that answer comes first, so stray answers that Epson printers give to a `DLE EOT` pattern
   * inside image data (sent before the answer, on the same line) arrive while no request is
   * pending and are dropped.
   */
  print(bytes: Uint8Array): Promise<PrintResult> {
    return this.exclusive(() => this.printLocked(bytes));
  }

  private emit(e: PrinterEvent): void {
    this.opts.log?.('printer.event', { type: e.type });
    for (const l of this.listeners) l(e);
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }

  private async readLoop(): Promise<void> {
    for (;;) {
      let chunk: Uint8Array | null;
      try {
        chunk = await this.opts.transport.read();
      } catch (e) {
        this.fail(
          new PrinterError('PRINTER_DISCONNECTED', `${this.opts.transport.description}: link lost`, {}, { cause: e }),
        );
        return;
      }
      if (chunk === null) {
        this.fail(new PrinterError('PRINTER_DISCONNECTED', `${this.opts.transport.description}: closed`, {}));
        return;
      }
      for (const b of chunk) this.onByte(b);
    }
  }

  private fail(e: PrinterError): void {
    if (this.lost) return;
    this.lost = e;
    const w = this.replyWaiter;
    this.replyWaiter = undefined;
    if (w) {
      clearTimeout(w.timer);
      w.reject(e);
    }
    this.emit({ type: 'disconnected' });
  }

  private onByte(b: number): void {
    if (isRealtimeReply(b)) {
      const w = this.replyWaiter;
      if (!w) return this.opts.log?.('printer.unexpected-byte', { byte: b });
      this.replyWaiter = undefined;
      clearTimeout(w.timer);
      w.resolve(b);
    } else if (isTransmitStatusReply(b)) {
      const w = this.processedWaiter;
      this.processedWaiter = undefined;
      w?.(b);
    } else this.opts.log?.('printer.unexpected-byte', { byte: b });
  }

  private async write(bytes: Uint8Array): Promise<void> {
    if (this.lost) throw this.lost;
    try {
      await this.opts.transport.write(bytes);
    } catch (e) {
      const err = new PrinterError(
        'PRINTER_DISCONNECTED',
        `${this.opts.transport.description}: write failed`,
        {},
        { cause: e },
      );
      this.fail(err);
      throw err;
    }
  }

  private async realtime(n: 1 | 2 | 3 | 4): Promise<number> {
    const reply = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.replyWaiter = undefined;
        reject(new PrinterError('PRINTER_TIMEOUT', `DLE EOT ${n}: no reply within ${this.replyTimeoutMs} ms`, { n }));
      }, this.replyTimeoutMs);
      this.replyWaiter = { resolve, reject, timer };
    });
    try {
      await this.write(encodeCommand('realtimeStatus', [n]));
    } catch (e) {
      const w = this.replyWaiter;
      this.replyWaiter = undefined;
      if (w) clearTimeout(w.timer);
      reply.catch(() => undefined);
      throw e;
    }
    return reply;
  }

  private async queryStatus(): Promise<PrinterStatus> {
    const b1 = await this.realtime(1);
    const b2 = await this.realtime(2);
    const b3 = await this.realtime(3);
    const b4 = await this.realtime(4);
    const status = decodeRealtimeStatus(b1, b2, b3, b4);
    for (const e of statusEvents(this.last, status)) this.emit(e);
    this.last = status;
    return status;
  }

  private async tryStatus(): Promise<PrinterStatus | 'no-answer' | 'disconnected'> {
    try {
      return await this.queryStatus();
    } catch (e) {
      if (e instanceof PrinterError && e.code === 'PRINTER_DISCONNECTED') return 'disconnected';
      if (e instanceof PrinterError && e.code === 'PRINTER_TIMEOUT') return 'no-answer';
      throw e;
    }
  }

  private async printLocked(bytes: Uint8Array): Promise<PrintResult> {
    try {
      await this.reopenIfLost();
    } catch {
      return { outcome: 'not-printed', reason: 'disconnected' };
    }
    const before = await this.tryStatus();
    if (typeof before === 'string') return { outcome: 'not-printed', reason: before };
    const cond = conditionOf(before);
    if (cond !== 'idle') return { outcome: 'not-printed', reason: cond, status: before };
    let processed: number | undefined;
    // Woken by the printer's answer behind the cut: the status is read as soon as the printer has
    // processed the receipt, not at the next poll (which the cashier waited for: 200 ms by default).
    let wake: (() => void) | undefined;
    this.processedWaiter = (b) => {
      processed = b;
      wake?.();
    };
    try {
      await this.write(concatBytes([bytes, encodeCommand('transmitStatus', [1])]));
    } catch {
      this.processedWaiter = undefined;
      return { outcome: 'uncertain', reason: 'disconnected' };
    }
    const deadline = Date.now() + this.printTimeoutMs;
    let status: PrinterStatus = before;
    for (;;) {
      if (processed === undefined)
        await new Promise<void>((r) => {
          const timer = setTimeout(r, this.pollMs);
          wake = () => (clearTimeout(timer), r());
        });
      wake = undefined;
      const s = await this.tryStatus();
      if (typeof s === 'string') {
        this.processedWaiter = undefined;
        return { outcome: 'uncertain', reason: s, status };
      }
      status = s;
      const c = conditionOf(s);
      if (c !== 'idle') {
        this.processedWaiter = undefined;
        return { outcome: 'uncertain', reason: c, status: s };
      }
      if (processed !== undefined) {
        if (decodeTransmitPaperStatus(processed).paperOut)
          return { outcome: 'uncertain', reason: 'paper-out', status: s };
        this.emit({ type: 'idle', status: s });
        return { outcome: 'printed', status: s };
      }
      if (Date.now() > deadline) {
        this.processedWaiter = undefined;
        return { outcome: 'uncertain', reason: 'timeout', status: s };
      }
    }
  }
}
