import { createRequire } from 'node:module';
import path from 'node:path';
import type { Agent as UndiciAgent } from 'undici';
import { givenBackOf } from '../engine/index.js';
import type { Config } from '../config/index.js';
import { systemClock, type Clock } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import { AlarmMonitor, WebhookQueue, WebhookSender, type AlarmEventSource, DayBook } from '../operations/index.js';
import type { ReceiptFacts } from '../receipt/index.js';
import type { Db, Journal, JournalEntry, Outbox } from '../store/index.js';
import { Maintenance } from './maintenance.js';
import type { Printing } from './printing.js';

/** undici's Agent alone (as src/main.ts takes it), loaded only when an alarm webhook is configured (fast start). */
const agentClass = (): typeof UndiciAgent =>
  createRequire(import.meta.url)('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;

export interface OperationsDeps {
  config: Config;
  log: Logger;
  db: Db;
  journal: Journal;
  outbox: Outbox;
  /** Host time (HostClock). */
  clock: Clock & { readonly offsetMs?: number };
  /** The terminal's own clock (the webhook's signed timestamp). */
  wallClock?: Clock;
  events?: AlarmEventSource;
  printing: Printing;
  pinpad?: { readonly status: string };
  /** True while a payment holds the terminal (maintenance waits). */
  busy?: () => boolean;
  /** A card-not-present pre-authorization's capture deadline (CnpEngine's), for its alarm. */
  captureDeadline?: (entry: JournalEntry) => Date;
  /** A payment's receipt facts, for its day's archive. */
  receiptOf?: (entry: JournalEntry) => ReceiptFacts | undefined;
}

/** The day book and the alarm monitor, built from the daemon's parts. */
export interface Operations {
  day: DayBook;
  alarms: AlarmMonitor;
  /** Retention, space given back, the disk watched (src/main/maintenance.ts). */
  maintenance: Maintenance;
  stop(): Promise<void>;
}

/** Builds and starts the operations part of the daemon: the day's report and close, and the alarms. */
export function startOperations(d: OperationsDeps): Operations {
  const v = d.config.values;
  const log = d.log.child({ component: 'operations' });
  const print = d.printing.document;
  const day = new DayBook({
    db: d.db,
    journal: d.journal,
    clock: d.clock,
    log,
    ...(print ? { print } : {}),
    ...(d.printing.columns ? { columns: d.printing.columns } : {}),
    environment: v.environment,
    terminalId: v.terminal.terminalId,
    archiveDir: path.join(v.stateDir, 'archive'),
  });
  const maintenance = new Maintenance({
    config: d.config,
    db: d.db,
    journal: d.journal,
    clock: d.clock,
    log: log.child({ part: 'maintenance' }),
    busy: d.busy ?? (() => false),
    ...(d.receiptOf ? { receiptOf: d.receiptOf } : {}),
    closeDay: (date) => day.close(date, { print: false }),
  });
  maintenance.prepare();
  maintenance.start();
  const hook = v.alarms.webhook;
  const secret = d.config.secrets.alarmWebhookSecret;
  const dispatcher = hook && secret ? new (agentClass())({ keepAliveTimeout: 10_000 }) : undefined;
  const webhook =
    hook && secret && dispatcher
      ? new WebhookSender({
          url: hook.url,
          secret,
          timeoutMs: hook.timeoutMs,
          queue: new WebhookQueue(d.db),
          wallClock: d.wallClock ?? systemClock,
          dispatcher,
          log: log.child({ part: 'alarm-webhook' }),
        })
      : undefined;
  const { lastStatus } = d.printing;
  const alarms = new AlarmMonitor({
    journal: d.journal,
    outbox: d.outbox,
    clock: d.clock,
    log: log.child({ part: 'alarms' }),
    thresholds: {
      closeWarningMs: v.alarms.closeWarningMinutes * 60_000,
      clockOffsetMs: v.alarms.clockOffsetSeconds * 1000,
      captureWarningMs: v.alarms.captureWarningHours * 3_600_000,
    },
    checkMs: v.alarms.checkSeconds * 1000,
    events: d.events,
    printer: lastStatus ? () => lastStatus() : undefined,
    pinpad: d.pinpad ? () => d.pinpad?.status : undefined,
    clockOffsetMs: () => d.clock.offsetMs ?? 0,
    webhook,
    terminal: { terminalId: v.terminal.terminalId, environment: v.environment },
    voided: (saleId) => givenBackOf(d.db, saleId),
    captureDeadline: d.captureDeadline,
  }).start();
  return {
    day,
    alarms,
    maintenance,
    async stop() {
      await maintenance.stop();
      await alarms.stop();
      await dispatcher?.close();
    },
  };
}
