import { healthTellsAlarmItself } from '../core/index.js';
import type { Dispatcher } from 'undici';
import type { Outbox } from '../store/index.js';
import { sendJson } from './http-kit.js';
import { json, ref, UNAUTHORIZED } from './openapi-kit.js';
import { operationsOf } from './routes.js';

/** The pinpad as health reads it (the driver's `SecurePinpad`: link status and secure session). */
export interface PinpadHealthSource {
  readonly status: string;
  readonly secure: { readonly recognition: string; readonly secure: boolean; readonly sessions: number };
}

/** One DUKPT slot as health shows it: whether the pinpad holds a key there, and the PIN key's KSN (public: it travels with every PIN block). */
export interface KeySlotView {
  present: boolean;
  /** For PIN keys read with GIX: the KSN; null otherwise. Never a key. */
  ksn: string | null;
}

/** What `GET /v1/health` shows as `pinpad.keySlots`: read once from the pinpad (GIX, or GIN on a classic one). */
export interface KeySlotsView {
  /** When the pinpad answered; null before (not connected yet, or the read failed). */
  readAt: string | null;
  /** Why the slots are unknown, when the read failed. */
  error: string | null;
  /** The configured slots (`pinpad.pinKeySlot`, `pinpad.dataKeySlot`). */
  configured: { pin: number; data: number };
  /** DUKPT PIN keys: every slot holding one, and the configured slot either way. */
  pin: Record<string, KeySlotView> | null;
  /** DUKPT data keys, likewise; null when the pinpad does not report them (GIN). */
  data: Record<string, KeySlotView> | null;
}

/**
 * Whether the acquirer answered lately: told of every answer (the `Date` header hook), of every
 * connection that failed on the acquirer's dispatcher, and of the daemon's probe
 * (src/main/acquirer-probe.ts), which asks again while the acquirer reads unreachable.
 */
export class AcquirerReach {
  #lastAnswerAt: Date | undefined;
  #lastFailureAt: Date | undefined;
  #lastFailure: string | undefined;
  /** Which came last, by call order (the clock may step when the host's Date header corrects it). */
  #lastWasAnswer: boolean | undefined;
  readonly #listeners = new Set<(reachable: boolean) => void>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** An answer came back (any HTTP status). */
  answered(at: Date = this.now()): void {
    const before = this.reachable;
    this.#lastAnswerAt = at;
    this.#lastWasAnswer = true;
    this.#tell(before);
  }

  /** A connection to the acquirer failed (or the probe got no usable answer). */
  failed(reason: string, at: Date = this.now()): void {
    const before = this.reachable;
    this.#lastFailureAt = at;
    this.#lastFailure = reason;
    this.#lastWasAnswer = false;
    this.#tell(before);
  }

  /** Told each time `reachable` changes (not on every answer). Returns the unsubscribe. */
  onChange(listener: (reachable: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** As `view().reachable`: whether the last thing heard was an answer; null before anything was. */
  get reachable(): boolean | null {
    return this.#lastWasAnswer ?? null;
  }

  /** When the acquirer last answered anything. */
  get lastAnswerAt(): Date | undefined {
    return this.#lastAnswerAt;
  }

  #tell(before: boolean | null): void {
    const now = this.reachable;
    if (now === before || now === null) return;
    for (const l of this.#listeners) l(now);
  }

  /** Listens to the dispatcher's `connectionError` events. */
  watch(dispatcher: Dispatcher): this {
    dispatcher.on('connectionError', (origin, _targets, err) => this.failed(`${String(origin)}: ${err.message}`));
    return this;
  }

  /** `reachable`: the last thing heard was an answer; undefined before anything was tried. */
  view(): {
    reachable: boolean | null;
    lastAnswerAt: string | null;
    lastFailureAt: string | null;
    lastFailure: string | null;
  } {
    return {
      reachable: this.reachable,
      lastAnswerAt: this.#lastAnswerAt?.toISOString() ?? null,
      lastFailureAt: this.#lastFailureAt?.toISOString() ?? null,
      lastFailure: this.#lastFailure ?? null,
    };
  }
}

/** What `GET /v1/health` reads; each part is optional (a daemon without it reports null). */
export interface HealthSources {
  pinpad?: PinpadHealthSource | undefined;
  acquirer?: AcquirerReach | undefined;
  /** The initialization tables' version in force. */
  tablesVersion?: (() => string | undefined) | undefined;
  /** How far the acquirer's clock is ahead of ours, ms (`HostClock.offsetMs`). */
  clock?: { readonly offsetMs: number } | undefined;
  /** The configured receipt printer and the last status its driver read (none for `kind: none`). */
  printer?:
    | {
        kind: string;
        lastStatus?: () =>
          { online: boolean; paperOut: boolean; paperNearEnd: boolean; coverOpen: boolean } | undefined;
      }
    | undefined;
  /** The alarms that hold now and the engines' recent ones (src/operations/alarms). */
  alarms?: (() => readonly { code: string; severity: string }[]) | undefined;
  /** The pinpad's DUKPT key slots as the daemon read them at start (src/main/pinpad-key-slots.ts). */
  keySlots?: (() => KeySlotsView) | undefined;
  /**
   * The rows awaiting the host's close (src/engine/awaiting-host-close.ts: wallet QR sales whose code
   * ended unpaid, wallet QR voids whose cancellation code ended not applied; open outbox tasks by
   * design, not stuck): shown as `outbox.awaitingHostClose`.
   */
  awaitingHostClose?: (() => number) | undefined;
  /** True while any payment (card, wallet QR, Pix, void) holds the terminal's payment lock. */
  paymentBusy?: (() => boolean) | undefined;
  /** True while the pinpad's first secure session is being opened (the daemon is ready before it). */
  pinpadOpening?: (() => boolean) | undefined;
  /** The disk: free space, the database, WAL, archive and log sizes, the rate and days left (src/main/maintenance.ts). */
  disk?: (() => object) | undefined;
}

export interface HealthDeps {
  outbox: Outbox;
  engine: { readonly busy: boolean };
  /** A void holds the pinpad too. */
  voids?: { readonly busy: boolean } | undefined;
  health?: HealthSources | undefined;
}

/** `reachable` and the paper as of the driver's last status read; null before any. */
function printerView(p: NonNullable<HealthSources['printer']>): {
  kind: string;
  reachable: boolean | null;
  paperOut: boolean | null;
  paperNearEnd: boolean | null;
  coverOpen: boolean | null;
} {
  const s = p.lastStatus?.();
  return {
    kind: p.kind,
    reachable: s ? s.online : null,
    paperOut: s?.paperOut ?? null,
    paperNearEnd: s?.paperNearEnd ?? null,
    coverOpen: s?.coverOpen ?? null,
  };
}

/** The configured slots the pinpad said are empty (nothing while unread). */
function missingKeys(k: KeySlotsView): string[] {
  const out: string[] = [];
  const slot = (n: number): string => String(n).padStart(2, '0');
  if (k.pin?.[slot(k.configured.pin)]?.present === false)
    out.push(`pinpad: no DUKPT PIN key in slot ${k.configured.pin}`);
  if (k.data?.[slot(k.configured.data)]?.present === false)
    out.push(`pinpad: no DUKPT data key in slot ${k.configured.data}`);
  return out;
}

/**
 * The daemon's health: `ok` when the pinpad is connected with a secure session and the
 * acquirer's last word was an answer; `degraded` otherwise (card sales would fail). Reads only
 * what the daemon already knows (the key slots were read once at start; the acquirer probe runs
 * on its own timer): no command to the pinpad, no request to the acquirer.
 */
export function healthView(deps: HealthDeps): Record<string, unknown> {
  const h = deps.health ?? {};
  const keySlots = h.keySlots?.() ?? null;
  const pinpad = h.pinpad
    ? {
        connected: h.pinpad.status === 'connected',
        status: h.pinpad.status,
        secure: h.pinpad.secure.secure,
        recognition: h.pinpad.secure.recognition,
        sessions: h.pinpad.secure.sessions,
        opening: h.pinpadOpening?.() === true,
        keySlots,
      }
    : null;
  const acquirer = h.acquirer?.view() ?? null;
  const printer = h.printer ? printerView(h.printer) : null;
  const awaiting = h.awaitingHostClose?.();
  const outbox = { ...deps.outbox.depth(), ...(awaiting !== undefined ? { awaitingHostClose: awaiting } : {}) };
  const problems: string[] = [];
  if (pinpad?.opening) problems.push('pinpad: opening the secure session (card sales answer 503 PINPAD_OPENING)');
  else if (pinpad && !(pinpad.connected && pinpad.secure))
    problems.push(pinpad.connected ? 'pinpad: no secure session' : `pinpad: ${pinpad.status}`);
  if (pinpad && keySlots) problems.push(...missingKeys(keySlots));
  if (printer?.reachable === false) problems.push('printer: offline');
  if (printer?.paperOut) problems.push('printer: paper out');
  if (printer?.coverOpen) problems.push('printer: cover open');
  if (acquirer?.reachable === false) problems.push('acquirer: unreachable');
  if (outbox.deadLetters > 0) problems.push(`outbox: ${outbox.deadLetters} dead letters`);
  const alarms = h.alarms?.() ?? [];
  for (const a of alarms)
    if (a.severity === 'error' && !healthTellsAlarmItself(a.code)) problems.push(`alarm: ${a.code}`);
  return {
    status: problems.length === 0 ? 'ok' : 'degraded',
    problems,
    busy: deps.engine.busy || deps.voids?.busy === true || deps.health?.paymentBusy?.() === true,
    pinpad,
    printer,
    acquirer,
    outbox,
    tables: { version: h.tablesVersion?.() ?? null },
    clock: h.clock ? { hostOffsetMs: h.clock.offsetMs } : null,
    disk: h.disk?.() ?? null,
    alarms,
  };
}

const op = operationsOf<HealthDeps>();

/** `GET /v1/health` (a screen's token reaches it too). */
export const HEALTH_OPERATIONS = [
  op({
    method: 'GET',
    path: '/v1/health',
    operationId: 'getHealth',
    tag: 'health',
    screens: 'any',
    errors: [],
    summary: "The terminal's health",
    responses: { '200': json(ref('Health'), 'What the daemon knows now.'), '401': UNAUTHORIZED },
    handle: ({ res }, deps) => sendJson(res, 200, healthView(deps)),
  }),
];
