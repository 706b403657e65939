import { createRequire } from 'node:module';
import type { SerialPort } from 'serialport';
import type * as SerialportModule from 'serialport';
import { ChunkQueue } from './chunk-queue.js';
import { TransportError, type Transport } from './transport.js';

/** serialport (a native module) is loaded at the first open, not when omnipos starts (fast start). */
const load = createRequire(import.meta.url);
const serialport = (): typeof SerialportModule => load('serialport') as typeof SerialportModule;

/** Serial settings; ABECS §2.1 fixes 19200 8N1. */
export interface SerialOptions {
  /** Device path: /dev/ttyACM0, a stable /dev/serial/by-id/… name, or a pseudo-terminal link. */
  path: string;
  /** Bits per second (default 19200, §2.1). */
  baudRate?: number;
}

/** A serial port (RS-232, USB CDC, Bluetooth SPP, pseudo-terminal) through `serialport`. */
export class SerialTransport implements Transport {
  readonly description: string;
  private port: SerialPort | undefined;
  private queue = new ChunkQueue();
  private closing = false;

  constructor(private readonly opts: SerialOptions) {
    this.description = `serial:${opts.path}`;
  }

  get isOpen(): boolean {
    return this.port?.isOpen === true && !this.closing;
  }

  open(): Promise<void> {
    const port = new (serialport().SerialPort)({
      path: this.opts.path,
      baudRate: this.opts.baudRate ?? 19200,
      dataBits: 8,
      parity: 'none',
      stopBits: 1,
      autoOpen: false,
    });
    this.port = port;
    this.queue = new ChunkQueue();
    this.closing = false;
    const lost = (why: string, cause?: unknown): void =>
      this.queue.end(
        this.closing
          ? null
          : new TransportError(
              'TRANSPORT_DISCONNECTED',
              `${this.description}: ${why}`,
              { path: this.opts.path },
              { cause },
            ),
      );
    port.on('data', (chunk: Buffer) => this.queue.push(Uint8Array.from(chunk)));
    port.on('close', (err: unknown) => lost(err ? 'device lost' : 'port closed', err));
    port.on('error', (err: unknown) => lost('port error', err));
    return new Promise((resolve, reject) => {
      port.open((err) => {
        if (err)
          reject(
            new TransportError(
              'TRANSPORT_OPEN_FAILED',
              `${this.description}: ${err.message}`,
              { path: this.opts.path },
              { cause: err },
            ),
          );
        else resolve();
      });
    });
  }

  read(): Promise<Uint8Array | null> {
    return this.queue.read();
  }

  write(bytes: Uint8Array): Promise<void> {
    const port = this.port;
    if (!port || !this.isOpen)
      return Promise.reject(new TransportError('TRANSPORT_DISCONNECTED', `${this.description}: not open`));
    return new Promise((resolve, reject) => {
      const fail = (err: unknown): void =>
        reject(
          new TransportError(
            'TRANSPORT_DISCONNECTED',
            `${this.description}: write failed`,
            { path: this.opts.path },
            { cause: err },
          ),
        );
      port.write(Buffer.from(bytes), (err) => {
        if (err) return fail(err);
        port.drain((e) => (e ? fail(e) : resolve()));
      });
    });
  }

  flush(): Promise<void> {
    this.queue.clear();
    const port = this.port;
    if (!port || !this.isOpen) return Promise.resolve();
    return new Promise((resolve) => port.flush(() => resolve()));
  }

  close(): Promise<void> {
    const port = this.port;
    this.closing = true;
    this.queue.end(null);
    if (!port?.isOpen) return Promise.resolve();
    return new Promise((resolve) => port.close(() => resolve()));
  }
}
