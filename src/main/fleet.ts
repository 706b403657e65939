import { readFileSync } from 'node:fs';
import path from 'node:path';
import { healthView, type HealthDeps, type EventHub } from '../api/index.js';
import { fleetMqttSettings, PACKAGE_ROOT, type Config } from '../config/index.js';
import type { Logger } from '../core/log/index.js';
// The fleet's client and its outbox load only when fleet.mqtt is configured (fast start).
import type { FleetClient, TelemetryOutbox } from '../fleet/index.js';
import type { Db, Journal } from '../store/index.js';
import type { Operations } from './operations.js';

export interface FleetDeps {
  config: Config;
  log: Logger;
  db: Db;
  journal: Journal;
  events: EventHub;
  operations: Operations;
  /** The same parts `GET /v1/health` reads. */
  health: HealthDeps;
  init: () => Promise<{ version: string | undefined }>;
  /** One pass of the money outbox; how many tasks it settled. */
  outboxFlush: () => Promise<number>;
  now: () => Date;
  /** Broker retry period, ms (tests shorten it). */
  reconnectMs?: number;
}

let softwareVersion: string | undefined;
function software(): string {
  softwareVersion ??= (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  return softwareVersion;
}

/** The fleet's MQTT client, when `fleet.mqtt` is configured; it follows the engines' events. */
export async function startFleet(
  d: FleetDeps,
): Promise<{ client: FleetClient; outbox: TelemetryOutbox; stop(): Promise<void> } | undefined> {
  const settings = fleetMqttSettings(d.config);
  if (!settings) return undefined;
  const [{ FleetClient }, { TelemetryOutbox }] = await Promise.all([
    import('../fleet/client.js'),
    import('../fleet/telemetry-outbox.js'),
  ]);
  const outbox = new TelemetryOutbox(d.db, settings.maxQueued, d.now);
  const version = software();
  const client = new FleetClient({
    settings,
    outbox,
    log: d.log.child({ component: 'fleet' }),
    now: d.now,
    ...(d.reconnectMs !== undefined ? { reconnectMs: d.reconnectMs } : {}),
    sources: {
      status: () => {
        const h = healthView(d.health);
        const alarms = (h.alarms as readonly { code: string; severity: string; since?: string }[]).map((a) => ({
          code: a.code,
          severity: a.severity,
          since: a.since,
        }));
        return {
          terminal: settings.terminalId,
          software: version,
          environment: d.config.values.environment,
          ...h,
          alarms,
        };
      },
      today: () => d.operations.day.today(),
      day: (date) => d.operations.day.report(date),
      alarms: () => d.operations.alarms.alarms(),
      journal: (id) => d.journal.get(id),
      init: async () => ({ ...(await d.init()) }),
      outboxFlush: async () => ({ settled: await d.outboxFlush() }),
    },
  }).start();
  const unsubscribe = d.events.subscribe((e) => client.onEvent(e));
  return {
    client,
    outbox,
    async stop() {
      unsubscribe();
      await client.stop();
    },
  };
}
