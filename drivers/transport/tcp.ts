import net from 'node:net';
import { ChunkQueue } from './chunk-queue.js';
import { TransportError, type Transport } from './transport.js';

export interface TcpOptions {
  host: string;
  port: number;
  /** Connect timeout, ms (default 3000). */
  connectTimeoutMs?: number;
}

/** A pinpad (or the virtual one) reached over TCP: Ethernet/Wi-Fi pinpads, serial servers, the sim. */
export class TcpTransport implements Transport {
  readonly description: string;
  private socket: net.Socket | undefined;
  private queue = new ChunkQueue();
  private closing = false;

  constructor(private readonly opts: TcpOptions) {
    this.description = `tcp:${opts.host}:${opts.port}`;
  }

  get isOpen(): boolean {
    return this.socket !== undefined && !this.socket.destroyed && !this.closing;
  }

  open(): Promise<void> {
    this.queue = new ChunkQueue();
    this.closing = false;
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: this.opts.host, port: this.opts.port });
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(
          new TransportError('TRANSPORT_OPEN_FAILED', `${this.description}: connect timed out`, {
            host: this.opts.host,
            port: this.opts.port,
          }),
        );
      }, this.opts.connectTimeoutMs ?? 3000);
      socket.once('connect', () => {
        clearTimeout(timer);
        this.socket = socket;
        resolve();
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        if (this.socket !== socket)
          reject(
            new TransportError('TRANSPORT_OPEN_FAILED', `${this.description}: ${err.message}`, {}, { cause: err }),
          );
      });
      socket.on('data', (chunk: Buffer) => this.queue.push(Uint8Array.from(chunk)));
      socket.on('close', () => {
        if (this.socket === socket || this.socket === undefined) {
          this.queue.end(
            this.closing
              ? null
              : new TransportError('TRANSPORT_DISCONNECTED', `${this.description}: connection closed`),
          );
        }
      });
    });
  }

  read(): Promise<Uint8Array | null> {
    return this.queue.read();
  }

  write(bytes: Uint8Array): Promise<void> {
    const s = this.socket;
    if (!s || !this.isOpen)
      return Promise.reject(new TransportError('TRANSPORT_DISCONNECTED', `${this.description}: not connected`));
    return new Promise((resolve, reject) => {
      s.write(bytes, (err) =>
        err
          ? reject(
              new TransportError('TRANSPORT_DISCONNECTED', `${this.description}: write failed`, {}, { cause: err }),
            )
          : resolve(),
      );
    });
  }

  flush(): Promise<void> {
    this.queue.clear();
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closing = true;
    this.queue.end(null);
    const s = this.socket;
    if (!s || s.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      s.once('close', () => resolve());
      s.destroy();
    });
  }
}
