import type { Clock, Logger } from '../../core/index.js';
import { nextDailyClose } from '../../engine/index.js';
import type { Journal, JournalEntry, Outbox } from '../../store/index.js';
import { cnpChargedCents } from '../day/lines.js';
import { conditions, engineAlarmKey, type AlarmSnapshot, type AlarmThresholds } from './conditions.js';
import type { Alarm, Condition } from './types.js';
import type { WebhookSender } from './webhook.js';

/** An engine's event as the event hub fans it out (only `alarm` events are read). */
export interface AlarmEventSource {
  subscribe(listener: (event: { type: string; id: number; code?: string; message?: string }) => void): () => void;
}

export interface AlarmMonitorOptions {
  journal: Journal;
  outbox: Outbox;
  /** Host time (business time and the daily close). */
  clock: Clock;
  log: Logger;
  thresholds: AlarmThresholds;
  /** How often the conditions are checked, ms. */
  checkMs: number;
  /** The engines' events (the API's event hub): their `alarm` events are notified too. */
  events?: AlarmEventSource | undefined;
  printer?: (() => { online: boolean; paperOut: boolean; coverOpen: boolean } | undefined) | undefined;
  pinpad?: (() => string | undefined) | undefined;
  clockOffsetMs?: (() => number) | undefined;
  /** Where notifications wait for the webhook, and who delivers them; none: health and logs only. */
  webhook?: WebhookSender | undefined;
  /** Told in every notification. */
  terminal: { terminalId: string; environment: string };
  /** How long an engine's one-off alarm stays in health, ms (default 24 h). */
  recentMs?: number;
  /**
   * What voids gave back of a sale, cents (the void engine's `givenBackOf`): a needs-refund sale
   * voided in full is settled and raises nothing; one voided in part names what is still owed.
   */
  voided?: ((saleId: number) => number) | undefined;
  /** A card-not-present pre-authorization's capture deadline (the engine's, by its host's rules); absent: none watched. */
  captureDeadline?: ((entry: JournalEntry) => Date) | undefined;
}

/** Conditions that may flicker (a device between two reads) are raised when seen in two checks in a row. */
const DEBOUNCED = /^(printer-|pinpad-)/;
const RECENT_MAX = 50;

/**
 * Alarms that reach someone: checks the outbox, the journal, the printer, the pinpad and the
 * clock every `checkMs`, and listens to the engines' `alarm` events. A new alarm is logged
 * (warn or error), kept in health while it holds, and queued for the webhook (persisted, so a
 * restart does not lose it); one that stops holding is logged as cleared.
 */
export class AlarmMonitor {
  readonly #o: AlarmMonitorOptions;
  readonly #active = new Map<string, Alarm>();
  readonly #seen = new Map<string, number>();
  readonly #recent: Alarm[] = [];
  #timer: NodeJS.Timeout | undefined;
  #sendTimer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(options: AlarmMonitorOptions) {
    this.#o = options;
  }

  start(): this {
    this.#unsubscribe = this.#o.events?.subscribe((e) => {
      if (e.type === 'alarm') this.#engineAlarm(e.id, e.code ?? 'ALARM', e.message ?? '');
    });
    this.check();
    this.#timer = setInterval(() => this.check(), this.#o.checkMs);
    this.#timer.unref();
    if (this.#o.webhook) {
      this.#sendTimer = setInterval(() => this.#send(), 1000);
      this.#sendTimer.unref();
      this.#send();
    }
    return this;
  }

  async stop(): Promise<void> {
    this.#unsubscribe?.();
    clearInterval(this.#timer);
    clearInterval(this.#sendTimer);
    await this.#o.webhook?.runOnce().catch(() => 0);
  }

  /** What holds now, then the engines' recent one-off alarms; for `GET /v1/health`. */
  alarms(): Alarm[] {
    const cutoff = this.#o.clock.now().getTime() - (this.#o.recentMs ?? 86_400_000);
    const recent = this.#recent.filter((a) => !this.#active.has(a.key) && Date.parse(a.since) >= cutoff);
    return [...this.#active.values(), ...recent];
  }

  /**
   * A one-off alarm told by a part that is no engine nor condition (the supervisor gate's
   * lockouts): kept in health as a recent alarm and sent to the webhook; its teller logs it.
   */
  notice(c: Omit<Condition, 'once'>): Alarm {
    return this.#raise(c, 'engine');
  }

  /** The snapshot the conditions read: the store and the devices as they are, nothing sent. */
  snapshot(): AlarmSnapshot {
    const now = this.#o.clock.now();
    const open = this.#o.outbox.open();
    const order = (p: Record<string, unknown>): string =>
      typeof p.merchantVoidId === 'string'
        ? p.merchantVoidId
        : typeof p.merchantOrderId === 'string'
          ? p.merchantOrderId
          : '?';
    let nextClose: Date | undefined;
    return {
      now,
      // Read only with undos pending: the time zone's arithmetic (ICU's first formatter, ~10 ms of a
      // start) is not paid by every check.
      get nextClose(): Date {
        return (nextClose ??= nextDailyClose(now));
      },
      pendingUndos: open
        .filter((t) => t.deadLetterReason === null && /undo/.test(t.operation))
        .map((t) => ({
          taskId: t.id,
          merchantOrderId: order(t.payload),
          attempts: t.attempts,
          lastError: t.lastError,
        })),
      deadLetters: open
        .filter((t) => t.deadLetterReason !== null)
        .map((t) => ({
          taskId: t.id,
          journalId: t.journalId,
          operation: t.operation,
          merchantOrderId: order(t.payload),
          reason: t.deadLetterReason ?? '',
        })),
      needsRefund: this.#o.journal
        .inStates(['needs-refund'])
        .map((e) => ({
          id: e.id,
          kind: e.kind,
          merchantOrderId: e.merchantOrderId,
          // A card-not-present sale's own row says what was voided of it.
          amount: e.kind === 'cnp' ? cnpChargedCents(e) : e.amount - (this.#o.voided?.(e.id) ?? 0),
        }))
        .filter((e) => e.amount > 0),
      printer: this.#o.printer?.(),
      pinpad: this.#o.pinpad?.(),
      clockOffsetMs: this.#o.clockOffsetMs?.() ?? 0,
      ...(this.#o.captureDeadline ? { preAuthorizations: this.#preAuthorizations(this.#o.captureDeadline) } : {}),
    };
  }

  #preAuthorizations(deadline: (entry: JournalEntry) => Date): NonNullable<AlarmSnapshot['preAuthorizations']> {
    return this.#o.journal
      .inStates(['authorized'])
      .filter((e) => e.kind === 'cnp')
      .map((e) => ({ id: e.id, merchantOrderId: e.merchantOrderId, amount: e.amount, deadline: deadline(e) }));
  }

  /** One check: raises what newly holds, clears what stopped. Never throws. */
  check(): Alarm[] {
    let holding: Condition[];
    try {
      holding = conditions(this.snapshot(), this.#o.thresholds);
    } catch (e) {
      this.#o.log.error({ err: e }, 'alarm check failed');
      return this.alarms();
    }
    const keys = new Set(holding.map((c) => c.key));
    for (const c of holding) {
      const n = (this.#seen.get(c.key) ?? 0) + 1;
      this.#seen.set(c.key, n);
      const current = this.#active.get(c.key);
      if (current) {
        current.message = c.message;
        if (c.context) current.context = c.context;
        continue;
      }
      if (DEBOUNCED.test(c.key) && n < 2) continue;
      this.#raise(c, 'condition');
    }
    for (const [key, alarm] of this.#active) {
      if (keys.has(key)) continue;
      this.#active.delete(key);
      this.#o.log.info({ alarm: alarm.code, key }, `alarm cleared: ${alarm.message}`);
    }
    for (const key of this.#seen.keys()) if (!keys.has(key)) this.#seen.delete(key);
    return this.alarms();
  }

  #raise(c: Condition, source: Alarm['source']): Alarm {
    const since = this.#o.clock.now().toISOString();
    const { once, ...rest } = c;
    const alarm: Alarm = { ...rest, id: once ? c.key : `${c.key}@${since}`, since, source };
    if (source === 'condition') {
      this.#active.set(c.key, alarm);
      // Engines log their own alarms when they raise them; conditions are logged here.
      const line = { alarm: c.code, key: c.key, ...(c.context ? { context: c.context } : {}) };
      if (c.severity === 'error') this.#o.log.error(line, c.message);
      else this.#o.log.warn(line, c.message);
    } else {
      this.#recent.push(alarm);
      if (this.#recent.length > RECENT_MAX) this.#recent.shift();
    }
    this.#notify(alarm);
    return alarm;
  }

  #engineAlarm(journalId: number, code: string, message: string): void {
    const key = engineAlarmKey(code, journalId);
    if (this.#active.has(key) || this.#recent.some((a) => a.key === key)) return;
    const once = !key.startsWith('engine:');
    this.#raise(
      { key, code, severity: 'error', message, context: { id: journalId }, ...(once ? { once } : {}) },
      'engine',
    );
  }

  #notify(alarm: Alarm): void {
    const w = this.#o.webhook;
    if (!w) return;
    const { key: _key, ...shown } = alarm;
    const body = { ...shown, terminalId: this.#o.terminal.terminalId, environment: this.#o.terminal.environment };
    try {
      if (w.enqueue(alarm.id, body)) this.#send();
    } catch (e) {
      this.#o.log.error({ err: e, alarm: alarm.code }, 'alarm not queued for the webhook');
    }
  }

  #send(): void {
    void this.#o.webhook?.runOnce().catch((e: unknown) => {
      this.#o.log.error({ err: e }, 'alarm webhook pass failed');
      return 0;
    });
  }
}
