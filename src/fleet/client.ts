import type { MqttClient } from 'mqtt';
import type { FleetMqttSettings } from '../config/index.js';
import type { Logger } from '../core/index.js';
import type { JournalEntry } from '../store/index.js';
import { answerCommand } from './command-answer.js';
import type { FleetCommand } from './commands.js';
import {
  alarmMessage,
  dayMessage,
  FINAL_STATUSES,
  paymentMessage,
  scrubbed,
  type AlarmFacts,
  type DayFacts,
} from './messages.js';
import type { TelemetryOutbox } from './telemetry-outbox.js';
import { connectBroker, untilClosed, withTimeout } from './mqtt-link.js';
import { CommandRefusals } from './refusals.js';
import { FleetTopics } from './topics.js';

/** What the terminal tells and does, read from the daemon's parts (src/main/fleet.ts). */
export interface FleetSources {
  /** The status's body besides `online` (health view, versions, outbox counts). */
  status(): Record<string, unknown>;
  /** Today's business date (host time). */
  today(): string;
  day(date: string): DayFacts;
  /** The alarms in force now. */
  alarms(): readonly AlarmFacts[];
  journal(id: number): JournalEntry | undefined;
  /** `init`: re-initialize the tables, as `omnipos init`. */
  init(): Promise<Record<string, unknown>>;
  /** `outbox-flush`: one pass of the money outbox now. */
  outboxFlush(): Promise<Record<string, unknown>>;
}

export interface FleetClientOptions {
  settings: FleetMqttSettings;
  outbox: TelemetryOutbox;
  sources: FleetSources;
  log: Logger;
  now?: () => Date;
  /** How often the alarms are compared with the last ones, ms (default 2000). */
  alarmCheckMs?: number;
  /** Retry period after a lost connection, ms (default 2000). */
  reconnectMs?: number;
}

/** How long the broker keeps a terminal's retained `day/<date>`, seconds (40 days). */
export const DAY_RETAIN_SECONDS = 40 * 86_400;

/** A state event as the daemon's event hub tells it. */
export interface FleetPaymentEvent {
  type: string;
  id: number;
  status?: string;
  kind?: string;
}

/**
 * The terminal's MQTT client: publishes status (retained, with the last will `{"online":false}`),
 * payments, alarms and the day (from the telemetry outbox, in order, when connected), and answers
 * the safe commands. Nothing it does is on a sale's path: events are queued on the next turn of
 * the event loop, and every failure is logged, never thrown.
 */
export class FleetClient {
  readonly topics: FleetTopics;
  readonly #o: FleetClientOptions;
  readonly #now: () => Date;
  #client: MqttClient | undefined;
  #draining = false;
  #again = false;
  #stopped = false;
  #alarms = new Map<string, AlarmFacts>();
  #timers: NodeJS.Timeout[] = [];
  #dayTimer: NodeJS.Timeout | undefined;
  readonly #refusals: CommandRefusals;
  /** Counters for GET /metrics and the bench. */
  readonly stats = { published: 0, bytes: 0, commands: 0, refused: 0, unanswered: 0, connects: 0 };

  constructor(options: FleetClientOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    this.topics = new FleetTopics(options.settings.prefix);
    this.#refusals = new CommandRefusals({ log: options.log, now: () => this.#now().getTime(), stats: this.stats });
  }

  get connected(): boolean {
    return this.#client?.connected === true;
  }

  start(): this {
    const s = this.#o.settings;
    const client = connectBroker(s, this.topics, this.#o.reconnectMs ?? 2000);
    this.#client = client;
    client.on('connect', () => {
      this.stats.connects++;
      this.#o.log.info({ broker: s.url, prefix: s.prefix }, 'fleet broker connected');
      client
        .subscribeAsync(this.topics.commands, { qos: 1 })
        .catch((e: unknown) => this.#o.log.warn({ err: e }, 'fleet: subscribing to commands failed'));
      this.publishStatus();
      this.#drain();
    });
    client.on('close', () => this.#o.log.debug('fleet broker connection closed'));
    client.on('error', (e) => this.#o.log.warn({ err: e }, 'fleet broker error'));
    client.on('message', (topic, payload) => void this.#command(topic, payload));
    const every = (ms: number, f: () => void): void => {
      const t = setInterval(f, ms);
      t.unref();
      this.#timers.push(t);
    };
    every(s.statusSeconds * 1000, () => this.publishStatus());
    every(this.#o.alarmCheckMs ?? 2000, () => this.checkAlarms());
    every(5000, () => this.#drain());
    every(5000, () => this.#refusals.flushDue());
    this.checkAlarms();
    return this;
  }

  /** Publishes `{"online":false}` (a clean stop sends no will) and disconnects. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const t of this.#timers) clearInterval(t);
    this.#refusals.flushAll();
    clearTimeout(this.#dayTimer);
    const client = this.#client;
    if (!client) return;
    if (client.connected) {
      await withTimeout(
        client.publishAsync(this.topics.status, JSON.stringify({ online: false, at: this.#now().toISOString() }), {
          qos: 1,
          retain: true,
        }),
        2000,
      ).catch(() => undefined);
    }
    await client.endAsync(true).catch(() => undefined);
  }

  /** The engines' events (via the daemon's hub): a payment reaching a final status is queued, once. */
  onEvent(event: FleetPaymentEvent): void {
    if (event.type !== 'state' || !event.status || !FINAL_STATUSES.has(event.status)) return;
    const { id, status } = event;
    // On the next turn: the sale's own step finishes first, whatever the outbox costs.
    setImmediate(() => {
      this.#safely('payment', () => {
        const entry = this.#o.sources.journal(id);
        if (!entry || entry.kind === 'void') return;
        const m = paymentMessage(this.#o.settings.terminalId, entry, status);
        this.#o.outbox.add({ msgId: m.msgId, topic: this.topics.payments, payload: m.payload, qos: 1, retain: false });
        this.#dayLater();
        this.#drain();
      });
    });
  }

  /** Compares the alarms in force with the last ones: each new one raised, each gone one cleared. */
  checkAlarms(): void {
    this.#safely('alarms', () => {
      const now = this.#o.sources.alarms();
      const at = this.#now().toISOString();
      const seen = new Map(now.map((a) => [a.id, a]));
      let changed = false;
      for (const [id, a] of seen) {
        if (this.#alarms.has(id)) continue;
        const m = alarmMessage(this.#o.settings.terminalId, a, 'raised', at);
        this.#o.outbox.add({ msgId: m.msgId, topic: this.topics.alarms, payload: m.payload, qos: 1, retain: false });
        changed = true;
      }
      for (const [id, a] of this.#alarms) {
        if (seen.has(id)) continue;
        const m = alarmMessage(this.#o.settings.terminalId, a, 'cleared', at);
        this.#o.outbox.add({ msgId: m.msgId, topic: this.topics.alarms, payload: m.payload, qos: 1, retain: false });
        changed = true;
      }
      this.#alarms = seen;
      if (changed) {
        this.publishStatus();
        this.#drain();
      }
    });
  }

  /** Queues `day/<date>` (retained) with the report as it is now. */
  publishDay(date = this.#o.sources.today()): DayFacts {
    const day = this.#o.sources.day(date);
    const m = dayMessage(this.#o.settings.terminalId, day);
    this.#o.outbox.add({ msgId: m.msgId, topic: this.topics.day(date), payload: m.payload, qos: 1, retain: true });
    this.#drain();
    return day;
  }

  /** Publishes `status` (retained) now, when connected; the next connect publishes it anyway. */
  publishStatus(): void {
    const client = this.#client;
    if (!client?.connected || this.#stopped) return;
    this.#safely('status', () => {
      const body = scrubbed({
        ...this.#o.sources.status(),
        online: true,
        at: this.#now().toISOString(),
        telemetry: this.#o.outbox.counts(),
      });
      const text = JSON.stringify(body);
      this.#count(text);
      client
        .publishAsync(this.topics.status, text, { qos: 1, retain: true })
        .catch((e: unknown) => this.#o.log.debug({ err: e }, 'fleet: status not published'));
    });
  }

  /** Delivers the telemetry outbox in order, one acknowledged message after another. */
  #drain(): void {
    if (this.#draining) {
      this.#again = true;
      return;
    }
    const client = this.#client;
    if (!client?.connected || this.#stopped) return;
    this.#draining = true;
    void (async () => {
      try {
        do {
          this.#again = false;
          for (;;) {
            const batch = this.#o.outbox.next(100);
            if (batch.length === 0) break;
            for (const m of batch) {
              if (!client.connected || this.#stopped) return;
              const text = JSON.stringify({ ...(JSON.parse(m.payload) as Record<string, unknown>), seq: m.seq });
              // A publish left waiting by a lost connection is abandoned: the message stays queued
              // and goes again after the reconnect (a consumer drops the duplicate by id).
              // A retained day report expires from the broker after DAY_RETAIN_SECONDS (MQTT 5), so
              // 10,000 terminals do not leave 10,000 retained topics a day there for ever.
              const options = {
                qos: m.qos,
                retain: m.retain,
                ...(m.retain && m.topic.startsWith(this.topics.day(''))
                  ? { properties: { messageExpiryInterval: DAY_RETAIN_SECONDS } }
                  : {}),
              };
              const sent = await untilClosed(client, client.publishAsync(m.topic, text, options));
              if (!sent) return;
              this.#count(text);
              this.#o.outbox.delivered(m.seq);
            }
          }
        } while (this.#again);
      } catch (e) {
        this.#o.log.warn({ err: e }, 'fleet: delivery paused');
      } finally {
        this.#draining = false;
      }
    })();
  }

  #count(text: string): void {
    this.stats.published++;
    this.stats.bytes += Buffer.byteLength(text);
  }

  #dayLater(): void {
    if (this.#dayTimer) return;
    this.#dayTimer = setTimeout(() => {
      this.#dayTimer = undefined;
      this.#safely('day', () => this.publishDay());
      this.publishStatus();
    }, 1000);
    this.#dayTimer.unref();
  }

  /** Answers a command on its result topic (or not at all: a refused one beyond the budget). */
  async #command(topic: string, payload: Buffer): Promise<void> {
    const name = this.topics.commandName(topic);
    if (name === undefined) return;
    this.stats.commands++;
    const text = await answerCommand(name, payload, {
      refusals: this.#refusals,
      log: this.#o.log,
      now: this.#now,
      run: (command, args) => this.#run(command, args),
    });
    if (text === undefined) return;
    this.#count(text);
    await this.#client
      ?.publishAsync(this.topics.result(name.slice(0, 64)), text, { qos: 1 })
      .catch((e: unknown) => this.#o.log.warn({ err: e }, 'fleet: command result not published'));
  }

  async #run(command: FleetCommand, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    switch (command) {
      case 'status':
        this.publishStatus();
        return { published: true };
      case 'day-report': {
        const day = this.publishDay(typeof args.date === 'string' ? args.date : undefined);
        return {
          date: day.date,
          closed: day.closedAt !== null,
          counts: day.counts,
          totals: { net: day.totals.net, salesAmount: day.totals.salesAmount },
        };
      }
      case 'outbox-flush': {
        const money = await this.#o.sources.outboxFlush();
        this.#drain();
        return { ...money, telemetry: this.#o.outbox.counts() };
      }
      case 'init': {
        const r = await this.#o.sources.init();
        this.publishStatus();
        return r;
      }
    }
  }

  #safely(what: string, f: () => void): void {
    try {
      f();
    } catch (e) {
      this.#o.log.error({ err: e, part: what }, 'fleet telemetry failed (the sale is not affected)');
    }
  }
}
