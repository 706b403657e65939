import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { Counter, Histogram, OpenMetricsContentType, Registry } from 'prom-client';
import type { HostOperation } from '../engine/index.js';
import { FINAL_STATUSES } from './messages.js';

/** What the metrics read at each scrape. */
export interface MetricsSources {
  /** The money outbox (`Outbox.depth()`). */
  outbox(): { pending: number; deadLetters: number; oldestDeadline: string | null };
  /** The telemetry outbox, when the fleet runs. */
  telemetry?: (() => { queued: number }) | undefined;
  printerKind: string;
  printer?:
    (() => { online: boolean; paperOut: boolean; coverOpen: boolean; paperNearEnd?: boolean } | undefined) | undefined;
  alarms(): readonly { code: string; severity: string }[];
  pinpadStatus(): string;
  /** The state directory's disk (src/main/maintenance.ts), when watched. */
  disk?: (() => DiskFigures) | undefined;
}

/** What the disk gauges read. */
export interface DiskFigures {
  freeBytes: number;
  dbBytes: number;
  walBytes: number;
  archiveBytes: number;
  logBytes: number;
  daysLeft: number | null;
}

/** prom-client (and @opentelemetry/api under it, ~85 files) loads at the first metric, not when the daemon starts. */
const promClient = (): typeof PromClient => createRequire(import.meta.url)('prom-client') as typeof PromClient;

const PINPAD_STATES = ['idle', 'connecting', 'connected', 'disconnected', 'reconnecting', 'closed'] as const;

/**
 * The terminal's Prometheus metrics (OpenMetrics text): payments by method and status, both
 * outboxes, the host's latency per operation, the pinpad link, the printer and the alarms in
 * force. Counters count from the daemon's start (Prometheus reads a restart as a reset).
 */
export class TerminalMetrics {
  readonly #sources: MetricsSources;
  readonly #counted = new Set<string>();
  #built: Built | undefined;

  /**
   * Nothing is built here: the registry and its metrics are made at the first thing counted or
   * the first scrape (fast start); counters still count from the daemon's start, since nothing
   * is counted before they exist.
   */
  constructor(sources: MetricsSources) {
    this.#sources = sources;
  }

  get #m(): Built {
    return (this.#built ??= build(this.#sources));
  }

  /** An engine's event (via the daemon's hub): a payment reaching a final status counts once. */
  onEvent(e: { type: string; id: number; status?: string; kind?: string }, method: string | undefined): void {
    if (e.type !== 'state' || !e.status || !FINAL_STATUSES.has(e.status)) return;
    const key = `${e.id}:${e.status}`;
    if (this.#counted.has(key)) return;
    this.#counted.add(key);
    if (this.#counted.size > 10_000) this.#counted.delete(this.#counted.values().next().value as string);
    this.#m.payments.inc({ method: method ?? 'unknown', status: e.status });
  }

  /** The host answered (or failed) a request of this operation after `seconds`. */
  hostAnswered(operation: HostOperation, seconds: number, outcome: 'answer' | 'error'): void {
    this.#m.latency.observe({ operation, outcome }, seconds);
  }

  pinpadLink(e: { state: string; reason?: unknown }): void {
    if (e.state === 'disconnected')
      this.#m.linkErrors.inc({ reason: typeof e.reason === 'string' ? e.reason : 'unknown' });
    if (e.state === 'reconnected') this.#m.reconnects.inc();
  }

  /** A request to the API refused for its bearer token. */
  authFailed(): void {
    this.#m.authFailures.inc();
  }

  async render(): Promise<{ contentType: string; body: string }> {
    const { registry } = this.#m;
    return { contentType: registry.contentType, body: await registry.metrics() };
  }
}

interface Built {
  registry: Registry<OpenMetricsContentType>;
  payments: Counter<'method' | 'status'>;
  latency: Histogram<'operation' | 'outcome'>;
  linkErrors: Counter<'reason'>;
  reconnects: Counter;
  authFailures: Counter;
}

function build(sources: MetricsSources): Built {
  const { Counter, Gauge, Histogram, Registry } = promClient();
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  const registers = [registry];
  const payments = new Counter<'method' | 'status'>({
    name: 'omnipos_payments',
    help: 'Payments that reached a final status, by method and status',
    labelNames: ['method', 'status'],
    registers,
  });
  const latency = new Histogram<'operation' | 'outcome'>({
    name: 'omnipos_host_request_duration_seconds',
    help: "The acquirer's answer time per operation (sale, confirm, undo, query, void…), from the request to its headers",
    labelNames: ['operation', 'outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers,
  });
  const linkErrors = new Counter<'reason'>({
    name: 'omnipos_pinpad_link_losses',
    help: 'Pinpad links lost, by reason',
    labelNames: ['reason'],
    registers,
  });
  const reconnects = new Counter({
    name: 'omnipos_pinpad_reconnects',
    help: 'Pinpad links re-established after a loss',
    registers,
  });
  const authFailures = new Counter({
    name: 'omnipos_api_auth_failures',
    help: 'API requests refused for a missing or wrong bearer token (every address together)',
    registers,
  });
  new Gauge({
    name: 'omnipos_pinpad_link_state',
    help: 'The pinpad link: 1 for the state it is in',
    labelNames: ['state'],
    registers,
    collect() {
      const now = sources.pinpadStatus();
      for (const s of PINPAD_STATES) this.set({ state: s }, s === now ? 1 : 0);
    },
  });
  new Gauge({
    name: 'omnipos_outbox_tasks',
    help: 'Money outbox tasks not done: pending (being delivered) and dead letters',
    labelNames: ['state'],
    registers,
    collect() {
      const d = sources.outbox();
      this.set({ state: 'pending' }, d.pending);
      this.set({ state: 'dead_letter' }, d.deadLetters);
    },
  });
  new Gauge({
    name: 'omnipos_outbox_oldest_deadline_seconds',
    help: 'The earliest deadline among pending outbox tasks, Unix seconds (0: none)',
    registers,
    collect() {
      const at = sources.outbox().oldestDeadline;
      this.set(at ? Date.parse(at) / 1000 : 0);
    },
  });
  if (sources.telemetry) {
    const telemetry = sources.telemetry;
    new Gauge({
      name: 'omnipos_fleet_telemetry_queued',
      help: 'Fleet messages waiting for the MQTT broker',
      registers,
      collect() {
        this.set(telemetry().queued);
      },
    });
  }
  if (sources.disk) diskGauges(Gauge, registers, sources.disk);
  new Gauge({
    name: 'omnipos_printer_state',
    help: 'The receipt printer as its driver last read it: 1 for each condition that holds',
    labelNames: ['kind', 'condition'],
    registers,
    collect() {
      const s = sources.printer?.();
      const kind = sources.printerKind;
      this.set({ kind, condition: 'online' }, s?.online ? 1 : 0);
      this.set({ kind, condition: 'paper_out' }, s?.paperOut ? 1 : 0);
      this.set({ kind, condition: 'paper_near_end' }, s?.paperNearEnd ? 1 : 0);
      this.set({ kind, condition: 'cover_open' }, s?.coverOpen ? 1 : 0);
      this.set({ kind, condition: 'unknown' }, s ? 0 : 1);
    },
  });
  new Gauge({
    name: 'omnipos_alarms',
    help: 'Alarms in force (and engine alarms of the last day), by code and severity',
    labelNames: ['code', 'severity'],
    registers,
    collect() {
      this.reset();
      const counts = new Map<string, { code: string; severity: string; n: number }>();
      for (const a of sources.alarms()) {
        const k = `${a.code}\u0000${a.severity}`;
        const c = counts.get(k) ?? { code: a.code, severity: a.severity, n: 0 };
        c.n++;
        counts.set(k, c);
      }
      for (const c of counts.values()) this.set({ code: c.code, severity: c.severity }, c.n);
    },
  });
  return { registry, payments, latency, linkErrors, reconnects, authFailures };
}

/** The disk: free bytes, what the terminal's files take, the days left at the current rate (-1: not falling). */
function diskGauges(
  Gauge: typeof PromClient.Gauge,
  registers: Registry<OpenMetricsContentType>[],
  disk: () => DiskFigures,
): void {
  new Gauge({
    name: 'omnipos_disk_bytes',
    help: "The state directory's disk: free bytes, and the bytes of the database, its WAL, the archive of closed days and the logs",
    labelNames: ['part'],
    registers,
    collect() {
      const d = disk();
      this.set({ part: 'free' }, d.freeBytes);
      this.set({ part: 'database' }, d.dbBytes);
      this.set({ part: 'wal' }, d.walBytes);
      this.set({ part: 'archive' }, d.archiveBytes);
      this.set({ part: 'logs' }, d.logBytes);
    },
  });
  new Gauge({
    name: 'omnipos_disk_days_left',
    help: 'Days until the free space reaches the write reserve at the rate of the last week (-1: not falling)',
    registers,
    collect() {
      this.set(disk().daysLeft ?? -1);
    },
  });
}
