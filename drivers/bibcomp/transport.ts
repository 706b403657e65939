import { FrameDecoder, encodeFrame, SILENT_LOGGER } from '../pinpad/index.js';
import type { DriverLogger } from '../pinpad/index.js';
import { TransportError, type Transport } from '../transport/index.js';
import { LibraryGate } from './gate.js';
import { PPCOMP, type BibcompCalls } from './library.js';

const ACK = 0x06;
const EOT = 0x04;

export interface BibcompTransportOptions {
  calls: BibcompCalls;
  /** The PP_Open port string, e.g. `COM1`, `/dev/ttyACM0` or, for the test library, `host:port`. */
  port: string;
  /** Pause between two PP_GenericCmdBin polls that answered PROCESSING (default 20 ms). */
  pollMs?: number;
  /** Pause before polling again after an answer (a sealed NTM is followed by more; default 50 ms). */
  afterAnswerMs?: number;
  /** A library call that has not returned after this long is a wedged library (default 15 s). */
  callTimeoutMs?: number;
  log?: DriverLogger;
  /** Set once a call never returned: the library holds a worker thread and is not called again. */
  wedged?: { value: boolean; call?: string };
}

/**
 * The ABECS driver's transport contract, served by a BibComp library: the link (drivers/pinpad)
 * writes packets and control bytes as it would on a serial line; here each command packet goes
 * whole to `PP_StartGenericCmdBin`, its answer comes back from polling `PP_GenericCmdBin` and is
 * framed again for the link, with the ACK the library already gave the pinpad. CAN becomes
 * `PP_Abort` and its EOT. A clear notification the library reports (PPCOMP_NOTIFY) reaches the
 * link as an NTM packet, so the driver gives the same prompts as on the wire. Sealed packets (the
 * secure channel, in TypeScript) pass through the library untouched.
 *
 * Every library call runs on koffi's worker thread and one at a time (a vendor library need not
 * be thread-safe). A library error on a command (e.g. 31, the library lost its port) is a
 * disconnection: the driver fails the command and reconnects with PP_Close/PP_Open. A call that
 * does not return within `callTimeoutMs` wedges the library: the link is reported lost and no
 * further call is made (each would hold another worker thread), so the daemon stays up.
 */
export class BibcompTransport implements Transport {
  readonly description: string;
  private opened = false;
  private closed = false;
  private readonly decoder = new FrameDecoder();
  private readonly chunks: Uint8Array[] = [];
  private reader: { resolve(c: Uint8Array | null): void; reject(e: Error): void } | undefined;
  private failure: TransportError | undefined;
  /** Library calls, one at a time, with the wedge deadline. */
  private readonly gate: LibraryGate;
  /** A command was started and its answers are being polled (until CAN or close). */
  private polling = false;
  private pollGen = 0;
  private readonly pollMs: number;
  private readonly callTimeoutMs: number;
  private readonly afterAnswerMs: number;
  private readonly log: DriverLogger;
  private readonly wedged: { value: boolean; call?: string };
  /** Calls made, for the benchmark and diagnostics. */
  readonly counters = { starts: 0, polls: 0, aborts: 0 };

  constructor(private readonly opts: BibcompTransportOptions) {
    this.description = `bibcomp:${opts.port}`;
    this.pollMs = opts.pollMs ?? 20;
    this.callTimeoutMs = opts.callTimeoutMs ?? 15_000;
    this.afterAnswerMs = opts.afterAnswerMs ?? 50;
    this.log = opts.log ?? SILENT_LOGGER;
    this.wedged = opts.wedged ?? { value: false };
    this.gate = new LibraryGate(this.callTimeoutMs, this.log, this.wedged);
  }

  get isOpen(): boolean {
    return this.opened && !this.closed && !this.failure;
  }

  async open(): Promise<void> {
    if (this.wedged.value) {
      throw new TransportError(
        'TRANSPORT_OPEN_FAILED',
        `${this.description}: the library did not return from ${this.wedged.call ?? 'a call'}; restart the daemon`,
        { port: this.opts.port, call: this.wedged.call },
      );
    }
    let code = await this.call('PP_Open', () => this.opts.calls.open(this.opts.port));
    if (code === PPCOMP.ALREADYOPEN) {
      // a previous connection of ours left it open (a reconnect after a loss): start again
      await this.call('PP_Close', () => this.opts.calls.close(''));
      code = await this.call('PP_Open', () => this.opts.calls.open(this.opts.port));
    }
    if (code !== PPCOMP.OK) {
      throw new TransportError('TRANSPORT_OPEN_FAILED', `${this.description}: PP_Open answered ${code}`, {
        port: this.opts.port,
        code,
      });
    }
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
      else if (e.type === 'control' && e.byte === 0x18) this.cancel();
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
    this.stopPolling();
    this.settle(null);
    if (this.opened && !this.wedged.value) {
      await this.call('PP_Close', () => this.opts.calls.close('')).catch(() => undefined);
    }
  }

  private command(data: Uint8Array): void {
    this.stopPolling();
    const gen = this.pollGen;
    void this.call('PP_StartGenericCmdBin', () => {
      this.counters.starts++;
      return this.opts.calls.startGeneric(data);
    }).then(
      (code) => {
        if (this.closed || this.failure) return;
        if (code !== PPCOMP.OK) return this.fail(`PP_StartGenericCmdBin answered ${code}`, { code });
        this.push(Uint8Array.of(ACK));
        if (gen === this.pollGen) this.startPolling();
      },
      (e: unknown) => this.fail(`PP_StartGenericCmdBin: ${(e as Error).message}`),
    );
  }

  private cancel(): void {
    this.stopPolling();
    void this.call('PP_Abort', () => {
      this.counters.aborts++;
      return this.opts.calls.abort();
    }).then(
      (code) => {
        if (this.closed || this.failure) return;
        // PP_Abort returns once the pinpad answered EOT (or the library gave up: no EOT, as on a wire)
        if (code === PPCOMP.OK) this.push(Uint8Array.of(EOT));
        else this.log.warn({ code }, 'bibcomp PP_Abort failed');
      },
      (e: unknown) => this.fail(`PP_Abort: ${(e as Error).message}`),
    );
  }

  private startPolling(): void {
    this.polling = true;
    const gen = ++this.pollGen;
    const loop = async (): Promise<void> => {
      while (this.polling && gen === this.pollGen && !this.closed && !this.failure) {
        const r = await this.call('PP_GenericCmdBin', () => {
          this.counters.polls++;
          return this.opts.calls.pollGeneric();
        });
        if (gen !== this.pollGen || this.closed || this.failure) return;
        let pause = this.pollMs;
        if (r.code === PPCOMP.OK && r.data) {
          // A sealed packet may be a notification the link opens: keep listening until the next command
          // or CAN, but after a pause, so that the driver's next command finds the library free.
          this.push(encodeFrame(r.data));
          pause = this.afterAnswerMs;
        } else if (r.code === PPCOMP.NOTIFY) {
          this.push(encodeFrame(notification(r.text ?? '')));
        } else if (r.code !== PPCOMP.PROCESSING) {
          return this.fail(`PP_GenericCmdBin answered ${r.code}`, { code: r.code });
        }
        await new Promise((res) => setTimeout(res, pause));
      }
    };
    loop().catch((e: unknown) => this.fail(`PP_GenericCmdBin: ${(e as Error).message}`));
  }

  private stopPolling(): void {
    this.polling = false;
    this.pollGen++;
  }

  /** Runs one library call after the previous one, with the wedge deadline. */
  private call<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return this.gate.call(name, fn);
  }

  private push(chunk: Uint8Array): void {
    if (this.reader) {
      const r = this.reader;
      this.reader = undefined;
      r.resolve(chunk);
    } else this.chunks.push(chunk);
  }

  private settle(value: null): void {
    const r = this.reader;
    this.reader = undefined;
    r?.resolve(value);
  }

  private fail(message: string, context: Record<string, unknown> = {}): void {
    if (this.closed || this.failure) return;
    this.stopPolling();
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
function notification(text: string): Uint8Array {
  const msg = text.slice(0, 32);
  return new Uint8Array(Buffer.from(`NTM000${String(msg.length).padStart(3, '0')}${msg}`, 'latin1'));
}
