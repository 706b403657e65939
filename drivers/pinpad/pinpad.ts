import { EventEmitter } from 'node:events';
export { INFO_GIX_IDS } from './commands/info.js';
import { commandRow } from '../../tables/pinpad/commands.js';
import { isTransportError } from '../transport/index.js';
import { checkMandatoryParams } from './codec/mandatory.js';
import { decodeResponse } from './codec/message.js';
import { CLO, GIN, GIX, OPN_CLASSIC, type GinResult, type GixResult } from './commands/control.js';
import { DEX, DSP, GCD, type DexOptions, type GcdRequest } from './commands/display.js';
import type { PinpadInfo } from './commands/info.js';
import { LONG_ANSWER_FACTOR, checkResponse, type CommandSpec } from './commands/spec.js';
import type { TwoLineText } from './commands/text.js';
import { PinpadError, isPinpadError } from './errors.js';
import { CLEAR_LAYER, Link, type LossReason, type PacketLayer } from './link/link.js';
import { linkTimings, type LinkTimings } from './link/timings.js';
import { SILENT_LOGGER, type DriverLogger } from './logger.js';
import type { PinpadEvents, PinpadStatus } from './pinpad-events.js';
import { readPinpadInfo } from './pinpad-info.js';
import { intOption, type PinpadOptions, type RunOptions, type SessionControl } from './pinpad-options.js';

export type { PinpadEvents, PinpadLinkEvent, PinpadNotification, PinpadStatus } from './pinpad-events.js';
export type { PinpadOptions, RunOptions, SessionControl, SessionRunner } from './pinpad-options.js';

/** ST_INVPARM (§3.1.1). */
const ST_INVPARM = 11;

/** Commands after which no card transaction is open. */
const CARD_SESSION_ENDS: ReadonlySet<string> = new Set(['RMC', 'CLO', 'CLX', 'OPN']);
/** A card transaction with no command for this long is over (its caller never sent RMC). */
const CARD_SESSION_MAX_IDLE_MS = 300_000;

/** Commands that leave the terminal's message or QR code on the pinpad's screen (no idle probe until another takes it). */
const SHOWS: ReadonlySet<string> = new Set(['DSP', 'DEX', 'DSI', 'CLO']);

/** PKTDATA limit for commands that are not Abecs commands (§2.2.1: legacy compatibility). */
const MAX_CLASSIC_PKTDATA = 1024;

/**
 * The ABECS pinpad driver: a queue of commands over one link, typed results, AbortSignal
 * cancellation, notifications and link-state events, unplug detection and reconnection with backoff.
 * It knows bytes and device commands, never sales.
 */
export class Pinpad extends EventEmitter<PinpadEvents> {
  private readonly timings: LinkTimings;
  private readonly probeMs: number;
  private readonly backoff: { enabled: boolean; initialMs: number; maxMs: number };
  private readonly log: DriverLogger;
  private link: Link | undefined;
  private statusValue: PinpadStatus = 'idle';
  private probeTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  /** Whether this connection's pinpad answers GIX (false) or only the classic GIN (true); undefined until info() tells. */
  private readonly classic: { only: boolean | undefined } = { only: undefined };
  /** What info() read on this connection (a full GIX takes 8 s on a real PPC930): asked once per connection. */
  private infoCache: Promise<PinpadInfo> | undefined;
  /** When the open card transaction (GCX … RMC) last ran a command; undefined when none is open. */
  private cardSessionAt: number | undefined;
  /** The pinpad shows what the terminal put there (a message, a QR code): a CAN might clear it, so no idle probe. */
  private showing = false;
  /** Whether this connection's transport may be probed with CAN when idle (not behind a vendor library). */
  private probeAllowed = true;

  constructor(private readonly opts: PinpadOptions) {
    super();
    this.timings = linkTimings(opts.timings);
    this.probeMs = intOption(opts.probeIntervalMs, 5000, 0, 3_600_000, 'probeIntervalMs');
    this.backoff = {
      enabled: opts.reconnect?.enabled ?? true,
      initialMs: intOption(opts.reconnect?.initialMs, 250, 1, 60_000, 'reconnect.initialMs'),
      maxMs: intOption(opts.reconnect?.maxMs, 5000, 1, 600_000, 'reconnect.maxMs'),
    };
    this.log = opts.log ?? SILENT_LOGGER;
  }

  get status(): PinpadStatus {
    return this.statusValue;
  }

  /** Sets the packet layer of the current connection (the secure channel after OPN; CLEAR_LAYER after CLO). */
  setLayer(layer: PacketLayer = CLEAR_LAYER): void {
    if (this.link) this.link.layer = layer;
  }

  /** Bytes and errors seen on the current link (for diagnostics and the benchmark). */
  get counters(): Link['counters'] | undefined {
    return this.link?.counters;
  }

  /** Opens the transport, aborts any blocking command left running (CAN, §2.2.2.3), opens the session. */
  async connect(): Promise<void> {
    if (this.statusValue === 'connected') return;
    if (this.statusValue === 'connecting' || this.statusValue === 'reconnecting') {
      throw new PinpadError(
        'PINPAD_DISCONNECTED',
        `the pinpad is already ${this.statusValue}; wait for the link event`,
        { status: this.statusValue },
      );
    }
    await this.connectOnce();
    this.emit('link', { state: 'connected' });
  }

  /**
   * connect(), for a daemon's start: when the pinpad cannot be reached now the call rejects with why, and
   * the driver keeps trying in the background with the reconnect backoff, as after a loss (link events
   * `reconnecting`, then `reconnected`). A pinpad plugged in later is found without a restart.
   */
  /** Set by close(): no reconnect is scheduled after it, even by a connect that fails after the close. */
  private closeAsked = false;

  async start(): Promise<void> {
    try {
      await this.connect();
    } catch (e) {
      if (this.backoff.enabled && this.statusValue === 'disconnected' && !this.closeAsked) this.scheduleReconnect(1);
      throw e;
    }
  }

  /** Stops probing and reconnecting and closes the link. Commands in flight fail as disconnected. */
  async close(): Promise<void> {
    this.closeAsked = true;
    this.statusValue = 'closed';
    this.stopTimers();
    const link = this.link;
    this.link = undefined;
    await link?.shutdown();
  }

  /** Runs one command; rejects with a PinpadError (see errors.ts for the codes). */
  run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts: RunOptions = {}): Promise<Res> {
    if (this.statusValue !== 'connected' || !this.link) {
      return Promise.reject(
        new PinpadError('PINPAD_DISCONNECTED', `${spec.id}: the pinpad is ${this.statusValue}`, {
          command: spec.id,
          status: this.statusValue,
        }),
      );
    }
    return this.exec(this.link, spec, req, opts);
  }

  private exec<Req, Res>(link: Link, spec: CommandSpec<Req, Res>, req: Req, opts: RunOptions): Promise<Res> {
    const signal = opts.signal;
    if (signal?.aborted)
      return Promise.reject(
        new PinpadError('PINPAD_CANCELLED', `${spec.id}: cancelled before it was sent`, { command: spec.id }),
      );
    let data: Uint8Array;
    try {
      data = spec.encode(req);
      checkMandatoryParams(spec.id, data); // the table's M parameters, before a byte leaves (§3.1.3.1)
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    if (commandRow(spec.id)?.family === 'classic' && data.length > MAX_CLASSIC_PKTDATA) {
      return Promise.reject(
        new PinpadError(
          'PINPAD_INVALID_ARGUMENT',
          `${spec.id}: ${data.length} bytes; only Abecs commands may exceed ${MAX_CLASSIC_PKTDATA} (§2.2.1)`,
          {
            command: spec.id,
            length: data.length,
          },
        ),
      );
    }
    let submitted: ReturnType<Link['submit']>;
    try {
      // a command a real pinpad may answer past the 10 s of §2.2.2 (flash writes, key maps) is waited longer
      const responseMs = spec.longAnswer?.(req) ? LONG_ANSWER_FACTOR * this.timings.responseMs : undefined;
      submitted = link.submit(spec.id, data, spec.blocking, (ntm) => this.notify(spec.id, ntm), responseMs);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    const { id, response } = submitted;
    if (this.cardSessionAt !== undefined) this.cardSessionAt = Date.now();
    const onAbort = (): void => link.cancel(id);
    signal?.addEventListener('abort', onAbort, { once: true });
    const result = response.then((bytes) => {
      const rsp = decodeResponse(bytes);
      checkResponse(spec.id, rsp);
      return spec.decode(rsp, req);
    });
    result.then(
      () => {
        this.trackCardSession(spec.id, true);
        if (SHOWS.has(spec.id)) this.showing = true;
        else if (spec.blocking) this.showing = false; // a prompt of its own took the screen
      },
      () => this.trackCardSession(spec.id, false),
    );
    return result.finally(() => signal?.removeEventListener('abort', onAbort));
  }

  /**
   * A card transaction is open from a card read (GCX, GCR) to its end (RMC, CLO, CLX, OPN): no idle
   * probe then, for a CAN may abort the card session on some firmware; an unplug is seen through the
   * transport. It also ends after CARD_SESSION_MAX_IDLE_MS without a command (a caller that never sent RMC).
   */
  private trackCardSession(command: string, ok: boolean): void {
    if ((command === 'GCX' || command === 'GCR') && ok) this.cardSessionAt = Date.now();
    else if (command === 'GCX' || command === 'GCR' || CARD_SESSION_ENDS.has(command)) this.cardSessionAt = undefined;
  }

  /** True while a card transaction (GCX … RMC) is open on this connection. */
  get inCardSession(): boolean {
    if (this.cardSessionAt === undefined) return false;
    if (Date.now() - this.cardSessionAt > CARD_SESSION_MAX_IDLE_MS) this.cardSessionAt = undefined;
    return this.cardSessionAt !== undefined;
  }

  private notify(command: string, data: Uint8Array): void {
    try {
      const rsp = decodeResponse(data);
      const msg = rsp.blocks[0] ? Buffer.from(rsp.blocks[0]).toString('latin1') : '';
      // NTM_MSG is formatted for 2 lines of 16 (§2.3.3): the second line starts at the 17th character
      const text = msg.length > 16 ? `${msg.slice(0, 16).trimEnd()}\n${msg.slice(16)}` : msg;
      this.emit('notification', { command, text });
    } catch {
      this.log.debug({ command }, 'pinpad notification does not decode');
    }
  }

  /** Classic OPN (§3.2.1). */
  open(opts?: RunOptions): Promise<void> {
    return this.run(OPN_CLASSIC, undefined, opts);
  }

  /** CLO (§3.2.6): ends the session, leaving a 2x16 message. */
  closeSession(message?: TwoLineText, opts?: RunOptions): Promise<void> {
    return this.run(CLO, message, opts);
  }

  gin(acqIdx: number, opts?: RunOptions): Promise<GinResult> {
    return this.run(GIN, acqIdx, opts);
  }

  gix(ids?: readonly number[], opts?: RunOptions): Promise<GixResult> {
    return this.run(GIX, ids, opts);
  }

  /**
   * Model, serial number, firmware, spec version and key presence per slot: GIX (the ids of
   * INFO_GIX_IDS) for a pinpad that knows the current commands; GIN 00 (+ 03 for DUKPT slot 01) for
   * one that answers GIX with ERR. Read once per connection and kept (the KSNs as they were then);
   * `refresh` asks again.
   */
  info(opts?: RunOptions & { refresh?: boolean }): Promise<PinpadInfo> {
    if (opts?.refresh || !this.infoCache) {
      const p = this.readInfo(opts);
      this.infoCache = p;
      p.catch(() => {
        if (this.infoCache === p) this.infoCache = undefined;
      });
    }
    return this.infoCache;
  }

  private readInfo(opts?: RunOptions): Promise<PinpadInfo> {
    return readPinpadInfo(this, this.classic, opts);
  }

  /** DSP (§3.3.5): a 2x16 message. */
  display(text: TwoLineText, opts?: RunOptions): Promise<void> {
    return this.run(DSP, text, opts);
  }

  /** DEX (§3.3.4): free text (lines split by "\n"), up to 160 characters; without the options on a pinpad that refuses them (2.12). */
  async displayEx(text: string, options?: DexOptions, opts?: RunOptions): Promise<void> {
    try {
      await this.run(DEX, { text, ...(options ? { options } : {}) }, opts);
    } catch (e) {
      // A 2.12 pinpad knows no DEX_OPTIONS (new in 2.20): the extra bytes make DEX_MSGLEN disagree
      // with the data and it answers ST_INVPARM (2.12 §6). The text goes again without them.
      if (
        !options ||
        !isPinpadError(e, 'PINPAD_STATUS') ||
        e.context.unknownCommand === true ||
        Number(e.context.status) !== ST_INVPARM
      )
        throw e;
      this.log.info({ command: 'DEX' }, 'pinpad refused DEX_OPTIONS; shown without them');
      await this.run(DEX, { text }, opts);
    }
  }

  /** GCD (§3.3.8, blocking): data typed by the customer for a fixed prompt. */
  getData(req: GcdRequest, opts?: RunOptions): Promise<string> {
    return this.run(GCD, req, opts);
  }

  private async connectOnce(): Promise<void> {
    this.statusValue = 'connecting';
    const transport = this.opts.transport();
    try {
      await transport.open();
    } catch (e) {
      this.statusValue = 'disconnected';
      const code = isTransportError(e, 'TRANSPORT_OPEN_FAILED') ? 'PINPAD_NOT_FOUND' : 'PINPAD_DISCONNECTED';
      throw new PinpadError(
        code,
        `cannot open ${transport.description}: ${(e as Error).message}`,
        { transport: transport.description },
        { cause: e },
      );
    }
    const link = new Link(transport, this.timings, this.log, (reason) => this.onLoss(link, reason));
    this.link = link;
    link.start();
    await transport.flush();
    if (!(await link.probe())) {
      this.statusValue = 'disconnected';
      await link.shutdown();
      throw new PinpadError('PINPAD_DISCONNECTED', `${transport.description}: no EOT in answer to CAN`, {
        transport: transport.description,
      });
    }
    this.classic.only = undefined;
    this.infoCache = undefined;
    this.cardSessionAt = undefined;
    this.showing = false;
    this.probeAllowed = transport.idleProbe !== false;
    try {
      const session: SessionControl = {
        run: (spec, req) => this.exec(link, spec, req, {}),
        setLayer: (layer) => {
          link.layer = layer;
        },
      };
      await (this.opts.openSession ?? ((s) => s.run(OPN_CLASSIC, undefined)))(session);
    } catch (e) {
      this.statusValue = 'disconnected';
      await link.shutdown();
      throw e;
    }
    if (this.link !== link || (this.statusValue as PinpadStatus) === 'closed') {
      await link.shutdown();
      throw new PinpadError('PINPAD_DISCONNECTED', 'closed while connecting', { transport: transport.description });
    }
    this.statusValue = 'connected';
    this.startProbe();
    this.log.info({ transport: transport.description }, 'pinpad connected');
  }

  private onLoss(link: Link, reason: LossReason): void {
    if (link !== this.link || this.statusValue !== 'connected') return;
    this.statusValue = 'disconnected';
    this.stopTimers();
    this.emit('link', { state: 'disconnected', reason });
    if (this.backoff.enabled) this.scheduleReconnect(1);
  }

  private scheduleReconnect(attempt: number): void {
    if (this.statusValue === 'closed' || this.closeAsked) return;
    const delayMs = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** (attempt - 1));
    this.statusValue = 'reconnecting';
    this.emit('link', { state: 'reconnecting', attempt, delayMs });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.statusValue === 'closed') return;
      this.connectOnce().then(
        () => this.emit('link', { state: 'reconnected', attempt }),
        (e: unknown) => {
          this.log.debug({ attempt, code: (e as PinpadError).code }, 'pinpad reconnect failed');
          if (this.statusValue !== 'closed') this.scheduleReconnect(attempt + 1);
        },
      );
    }, delayMs);
  }

  private startProbe(): void {
    if (this.probeMs === 0) return;
    this.probeTimer = setInterval(() => {
      const link = this.link;
      if (this.statusValue !== 'connected' || !link?.idle || this.inCardSession) return;
      if (this.showing || !this.probeAllowed) return; // a CAN could clear the screen, or costs a PP_Abort
      void link.probe();
    }, this.probeMs);
    this.probeTimer.unref();
  }

  private stopTimers(): void {
    if (this.probeTimer) clearInterval(this.probeTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.probeTimer = undefined;
    this.reconnectTimer = undefined;
  }
}
