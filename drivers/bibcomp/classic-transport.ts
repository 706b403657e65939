import { FrameDecoder, encodeFrame, SILENT_LOGGER } from '../pinpad/index.js';
import type { DriverLogger } from '../pinpad/index.js';
import { TransportError, type Transport } from '../transport/index.js';
import { LibraryGate, type Wedge } from './gate.js';
import { PPCOMP, type BibcompCalls, type ClassicAnswer, type ClassicFunction } from './library.js';

const ACK = 0x06;
const EOT = 0x04;
const CAN = 0x18;
const DC2 = 0x12;

export interface ClassicBibcompTransportOptions {
  calls: BibcompCalls;
  port: string;
  /** Pause between two polls that answered PROCESSING (default 20 ms). */
  pollMs?: number;
  /** A library call that has not returned after this long is a wedged library (default 15 s). */
  callTimeoutMs?: number;
  log?: DriverLogger;
  wedged?: Wedge;
}

type Blocks = readonly string[];

/** How one classic command is served by the library's classic functions. */
type Route =
  | { kind: 'local'; data?: string }
  | { kind: 'start'; start: ClassicFunction; poll: ClassicFunction; inputs: (b: Blocks) => string[] | undefined }
  | { kind: 'run'; fn: ClassicFunction | 'PP_GetInfo' | 'PP_Display'; inputs: (b: Blocks) => string[] | undefined };

const one = (b: Blocks): string[] | undefined => (b.length === 1 ? [b[0]!] : undefined);
const none = (b: Blocks): string[] | undefined => (b.length === 0 ? [] : undefined);

/**
 * The classic commands a BibComp library without the generic command can carry, by the PPCOMP.H
 * function that does each (input: the command's blocks; output: the answer's data). OPN and CLO
 * are the library's own business (PP_Open/PP_Close on the transport): answered here, as an obsolete
 * pinpad answers OPN (§3.2.2), so the secure driver recognises it as one.
 */
const ROUTES: Readonly<Record<string, (b: Blocks) => Route | undefined>> = {
  OPN: () => ({ kind: 'local' }),
  CLO: () => ({ kind: 'local' }),
  GIN: () => ({ kind: 'run', fn: 'PP_GetInfo', inputs: one }),
  DSP: () => ({ kind: 'run', fn: 'PP_Display', inputs: one }),
  GCR: (b) =>
    b.length === 0
      ? { kind: 'start', start: 'PP_ResumeGetCard', poll: 'PP_GetCard', inputs: none }
      : { kind: 'start', start: 'PP_StartGetCard', poll: 'PP_GetCard', inputs: one },
  GOC: () => ({
    kind: 'start',
    start: 'PP_StartGoOnChip',
    poll: 'PP_GoOnChip',
    inputs: (b) => (b.length === 3 ? [...b] : undefined),
  }),
  FNC: () => ({ kind: 'run', fn: 'PP_FinishChip', inputs: (b) => (b.length === 2 ? [...b] : undefined) }),
  GPN: () => ({ kind: 'start', start: 'PP_StartGetPIN', poll: 'PP_GetPIN', inputs: one }),
  RMC: () => ({ kind: 'start', start: 'PP_StartRemoveCard', poll: 'PP_RemoveCard', inputs: one }),
  GTS: () => ({ kind: 'run', fn: 'PP_GetTimeStamp', inputs: one }),
  TLI: () => ({ kind: 'run', fn: 'PP_TableLoadInit', inputs: one }),
  TLR: () => ({ kind: 'run', fn: 'PP_TableLoadRec', inputs: one }),
  TLE: () => ({ kind: 'run', fn: 'PP_TableLoadEnd', inputs: none }),
};

/** Library return codes that mean the link to the pinpad is gone (the library's own, §PPCOMP.H 14-15, 30-34). */
const LINK_LOST: ReadonlySet<number> = new Set([
  PPCOMP.NOTOPEN,
  PPCOMP.PORTERR,
  PPCOMP.COMMERR,
  PPCOMP.UNKNOWNSTAT,
  PPCOMP.RSPERR,
  PPCOMP.COMMTOUT,
]);

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
const n3 = (n: number): string => String(n).padStart(3, '0');

/** CMD_ID and the blocks of a clear classic command (§2.3.1), or undefined when the structure is broken. */
function split(data: Uint8Array): { id: string; blocks: string[] } | undefined {
  const s = latin1(data);
  if (s.length < 3) return undefined;
  const blocks: string[] = [];
  let at = 3;
  while (at < s.length) {
    const len = s.slice(at, at + 3);
    if (!/^\d{3}$/.test(len) || at + 3 + Number(len) > s.length) return undefined;
    blocks.push(s.slice(at + 3, at + 3 + Number(len)));
    at += 3 + Number(len);
  }
  return { id: s.slice(0, 3), blocks };
}

/**
 * The ABECS driver's transport over a BibComp library that has no generic command (the classic kind
 * of vendor library): each classic command the link writes is carried by the PPCOMP.H function that
 * does it — GCR by PP_StartGetCard/PP_GetCard (PP_ResumeGetCard for GCR alone), GOC by
 * PP_StartGoOnChip/PP_GoOnChip, FNC by PP_FinishChip, GPN by PP_StartGetPIN/PP_GetPIN, RMC by
 * PP_StartRemoveCard/PP_RemoveCard, GTS by PP_GetTimeStamp, TLI/TLR/TLE by PP_TableLoad*, GIN by
 * PP_GetInfo, DSP by PP_Display — and its answer framed again for the link with the function's
 * return code as RSP_STAT. Anything else (the Abecs commands, a sealed packet) is unknown to such a
 * library: ERR010, as a classic pinpad answers (§2.3.4). The driver above sees an obsolete pinpad;
 * with no EBX it serves display, information, tables and PIN, and refuses card sales by name
 * (card.ClassicCardPinpad). Calls run on koffi's worker thread, one at a time, with the wedge rule of
 * BibcompTransport; a library error of the link (14-15, 30-34) is a disconnection.
 */
export class ClassicBibcompTransport implements Transport {
  readonly description: string;
  private opened = false;
  private closed = false;
  private readonly decoder = new FrameDecoder();
  private readonly chunks: Uint8Array[] = [];
  private reader: { resolve(c: Uint8Array | null): void; reject(e: Error): void } | undefined;
  private failure: TransportError | undefined;
  private gen = 0;
  private readonly gate: LibraryGate;
  private readonly pollMs: number;
  private readonly log: DriverLogger;
  readonly counters = { starts: 0, polls: 0, aborts: 0 };

  constructor(private readonly opts: ClassicBibcompTransportOptions) {
    this.description = `bibcomp-classic:${opts.port}`;
    this.pollMs = opts.pollMs ?? 20;
    this.log = opts.log ?? SILENT_LOGGER;
    this.gate = new LibraryGate(opts.callTimeoutMs ?? 15_000, this.log, opts.wedged ?? { value: false });
  }

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
    this.gen++;
    const r = this.reader;
    this.reader = undefined;
    r?.resolve(null);
    if (this.opened && !this.gate.wedge.value)
      await this.gate.call('PP_Close', () => this.opts.calls.close('')).catch(() => undefined);
  }

  private command(data: Uint8Array): void {
    const gen = ++this.gen;
    this.push(Uint8Array.of(ACK));
    const cmd = data[0] === DC2 ? undefined : split(data);
    const id = cmd?.id ?? 'ERR';
    const route = cmd ? ROUTES[cmd.id]?.(cmd.blocks) : undefined;
    if (!cmd || !route) return this.answer(gen, 'ERR', PPCOMP.INVCALL);
    if (route.kind === 'local') return this.answer(gen, id, PPCOMP.OK, route.data);
    const inputs = route.inputs(cmd.blocks);
    // PPCOMP.H passes NUL-terminated text: a block with a NUL or outside Latin-1 text cannot be carried
    if (!inputs || inputs.some((x) => [...x].some((ch) => ch.charCodeAt(0) < 0x20)))
      return this.answer(gen, id, PPCOMP.INVPARM);
    if (route.kind === 'run') {
      void this.runCall(gen, id, route.fn, inputs);
      return;
    }
    if (!this.opts.calls.has(route.start) || !this.opts.calls.has(route.poll))
      return this.answer(gen, 'ERR', PPCOMP.INVCALL);
    void this.gate
      .call(route.start, () => {
        this.counters.starts++;
        return this.opts.calls.classic(route.start, ...inputs);
      })
      .then(
        (r) => (r.code === PPCOMP.OK ? this.poll(gen, id, route.poll) : this.settleCode(gen, id, r)),
        (e: unknown) => this.fail(`${route.start}: ${(e as Error).message}`),
      );
  }

  private async runCall(
    gen: number,
    id: string,
    fn: ClassicFunction | 'PP_GetInfo' | 'PP_Display',
    inputs: string[],
  ): Promise<void> {
    const c = this.opts.calls;
    try {
      let r: ClassicAnswer;
      if (fn === 'PP_GetInfo') {
        const x = await this.gate.call(fn, () => c.getInfo(inputs[0]!));
        r = { code: x.code, output: x.text };
      } else if (fn === 'PP_Display') r = { code: await this.gate.call(fn, () => c.display(inputs[0]!)) };
      else if (!c.has(fn)) return this.answer(gen, 'ERR', PPCOMP.INVCALL);
      else r = await this.gate.call(fn, () => c.classic(fn, ...inputs));
      this.settleCode(gen, id, r);
    } catch (e) {
      this.fail(`${fn}: ${(e as Error).message}`);
    }
  }

  private async poll(gen: number, id: string, fn: ClassicFunction): Promise<void> {
    try {
      while (gen === this.gen && !this.closed && !this.failure) {
        const r = await this.gate.call(fn, () => {
          this.counters.polls++;
          return this.opts.calls.classic(fn);
        });
        if (gen !== this.gen) return;
        if (r.code === PPCOMP.NOTIFY) this.push(encodeFrame(notification(r.notify ?? '')));
        else if (r.code !== PPCOMP.PROCESSING) return this.settleCode(gen, id, r);
        await new Promise((res) => setTimeout(res, this.pollMs));
      }
    } catch (e) {
      this.fail(`${fn}: ${(e as Error).message}`);
    }
  }

  /** The function's return code as the answer's RSP_STAT; a lost link fails the transport. */
  private settleCode(gen: number, id: string, r: ClassicAnswer): void {
    if (LINK_LOST.has(r.code)) return this.fail(`${id}: the library answered ${r.code}`, { code: r.code });
    if (r.code === PPCOMP.NOFUNC) return this.answer(gen, 'ERR', PPCOMP.INVCALL);
    this.answer(gen, id, r.code, r.code === PPCOMP.OK ? r.output : undefined);
  }

  private answer(gen: number, id: string, status: number, data?: string): void {
    if (gen !== this.gen || this.closed || this.failure) return;
    const body =
      status === PPCOMP.OK && data !== undefined && data !== ''
        ? `${n3(Buffer.byteLength(data, 'latin1'))}${data}`
        : '';
    this.push(encodeFrame(Uint8Array.from(Buffer.from(`${id}${n3(status)}${body}`, 'latin1'))));
  }

  private cancel(): void {
    this.gen++;
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

  private push(chunk: Uint8Array): void {
    if (this.reader) {
      const r = this.reader;
      this.reader = undefined;
      r.resolve(chunk);
    } else this.chunks.push(chunk);
  }

  private fail(message: string, context: Record<string, unknown> = {}): void {
    if (this.closed || this.failure) return;
    this.gen++;
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

/** A clear NTM answer (§2.3.3) carrying the library's notification. */
function notification(text: string): Uint8Array {
  const msg = text.slice(0, 32);
  return new Uint8Array(Buffer.from(`NTM000${n3(msg.length)}${msg}`, 'latin1'));
}
