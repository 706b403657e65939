import { FrameDecoder, SILENT_LOGGER, type DriverLogger } from '../pinpad/index.js';
import { TransportError, type Transport } from '../transport/index.js';
import { LibraryGate, type Wedge } from './gate.js';
import { PPCOMP, type BibcompCalls } from './library.js';

const EOT = 0x04;
const CAN = 0x18;

/** What the BibComp transport takes. */
export interface LibraryTransportOptions {
  calls: BibcompCalls;
  /** The PP_Open port string, e.g. `COM1`, `/dev/ttyACM0` or, for the test library, `host:port`. */
  port: string;
  /** A library call that has not returned after this long is a wedged library (default 15 s). */
  callTimeoutMs?: number;
  log?: DriverLogger;
  /** Set once a call never returned: the library holds a worker thread and is not called again. */
  wedged?: Wedge;
}

/**
 * The library side of the driver's transport contract: PP_Open/PP_Close around
 * the connection (a port left open by an earlier connection of ours is closed and opened again),
 * the chunks the link reads, the link's bytes decoded into frames (each handed to `command`) and CAN
 * (PP_Abort, then the EOT a pinpad would send), and a library failure that ends the connection as a
 * disconnection. Library calls go one at a time through the gate, with the wedge deadline.
 */
export abstract class LibraryTransport implements Transport {
  readonly description: string;
  /** Every CAN is a PP_Abort here: the pinpad driver does not probe the idle link through a library. */
  readonly idleProbe = false;
  protected opened = false;
  protected closed = false;
  private readonly decoder = new FrameDecoder();
  private readonly chunks: Uint8Array[] = [];
  private reader: { resolve(c: Uint8Array | null): void; reject(e: Error): void } | undefined;
  protected failure: TransportError | undefined;
  /** Library calls, one at a time, with the wedge deadline. */
  protected readonly gate: LibraryGate;
  protected readonly log: DriverLogger;
  /** Calls made, for the benchmark and diagnostics. */
  readonly counters = { starts: 0, polls: 0, aborts: 0 };

  constructor(
    protected readonly opts: LibraryTransportOptions,
    kind: string,
  ) {
    this.description = `${kind}:${opts.port}`;
    this.log = opts.log ?? SILENT_LOGGER;
    this.gate = new LibraryGate(opts.callTimeoutMs ?? 15_000, this.log, opts.wedged ?? { value: false });
  }

  /** A command packet the link wrote (clear or sealed), whole. */
  protected abstract command(data: Uint8Array): void;
  /** Forgets the command in progress (CAN, a failure, close): its late answers are dropped. */
  protected abstract stop(): void;

  get isOpen(): boolean {
    return this.opened && !this.closed && !this.failure;
  }

  async open(): Promise<void> {
    const w = this.gate.wedge;
    if (w.value)
      throw new TransportError(
        'TRANSPORT_OPEN_FAILED',
        `${this.description}: the library did not return from ${w.call ?? 'a call'}; restart the daemon`,
        { port: this.opts.port, call: w.call },
      );
    let code = await this.gate.call('PP_Open', () => this.opts.calls.open(this.opts.port));
    if (code === PPCOMP.ALREADYOPEN) {
      // a previous connection of ours left it open (a reconnect after a loss): start again
      await this.gate.call('PP_Close', () => this.opts.calls.close(''));
      code = await this.gate.call('PP_Open', () => this.opts.calls.open(this.opts.port));
    }
    if (code !== PPCOMP.OK)
      throw new TransportError('TRANSPORT_OPEN_FAILED', `${this.description}: PP_Open answered ${code}`, {
        port: this.opts.port,
        code,
      });
    this.opened = true;
  }

  read(): Promise<Uint8Array | null> {
    const c = this.chunks.shift();
    if (c) return Promise.resolve(c);
    if (this.closed) return Promise.resolve(null);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.reader = { resolve, reject }));
  }

  write(bytes: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new TransportError('TRANSPORT_CLOSED', `${this.description}: closed`));
    if (this.failure) return Promise.reject(this.failure);
    for (const e of this.decoder.push(bytes)) {
      if (e.type === 'frame') this.command(e.data);
      else if (e.type === 'control' && e.byte === CAN) this.cancel();
      // ACK/NAK of ours for an answer: the library already acknowledged the pinpad
    }
    return Promise.resolve();
  }

  flush(): Promise<void> {
    this.chunks.length = 0;
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stop();
    const r = this.reader;
    this.reader = undefined;
    r?.resolve(null);
    if (this.opened && !this.gate.wedge.value)
      await this.gate.call('PP_Close', () => this.opts.calls.close('')).catch(() => undefined);
  }

  /** CAN: PP_Abort, which returns once the pinpad answered EOT (or the library gave up: no EOT, as on a wire). */
  private cancel(): void {
    this.stop();
    void this.gate
      .call('PP_Abort', () => {
        this.counters.aborts++;
        return this.opts.calls.abort();
      })
      .then(
        (code) => {
          if (this.closed || this.failure) return;
          if (code === PPCOMP.OK) this.push(Uint8Array.of(EOT));
          else this.log.warn({ code }, 'bibcomp PP_Abort failed');
        },
        (e: unknown) => this.fail(`PP_Abort: ${(e as Error).message}`),
      );
  }

  /** Bytes for the link to read. */
  protected push(chunk: Uint8Array): void {
    if (this.reader) {
      const r = this.reader;
      this.reader = undefined;
      r.resolve(chunk);
    } else this.chunks.push(chunk);
  }

  /** The library failed: the connection is lost (TRANSPORT_DISCONNECTED), the driver reconnects. */
  protected fail(message: string, context: Record<string, unknown> = {}): void {
    if (this.closed || this.failure) return;
    this.stop();
    this.log.warn({ ...context, port: this.opts.port }, `bibcomp: ${message}`);
    this.failure = new TransportError('TRANSPORT_DISCONNECTED', `${this.description}: ${message}`, {
      port: this.opts.port,
      ...context,
    });
    const r = this.reader;
    this.reader = undefined;
    r?.reject(this.failure);
  }
}

/** A clear NTM answer (§2.3.3: "NTM", RSP_STAT 000, RSP_LEN1, NTM_MSG of up to 32) carrying the library's notification. */
export function notification(text: string): Uint8Array {
  const msg = text.slice(0, 32);
  return new Uint8Array(Buffer.from(`NTM000${String(msg.length).padStart(3, '0')}${msg}`, 'latin1'));
}
