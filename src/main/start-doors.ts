import { PaymentOwners } from '../api/index.js';
import { awaitingHostCloseStates, awaitsHostClose } from '../engine/index.js';
import { PaymentOwnerRows } from '../store/index.js';
import { receiptService } from './printing.js';
import { startFleet } from './fleet.js';
import { startMetrics } from './metrics.js';
import type { Held } from './held.js';
import { startApi } from './api.js';
import { startTefDial } from './tefdial.js';
import type { Daemon, DaemonDeps } from './daemon.js';
import type { Built } from './start-engines.js';

/**
 * The daemon's last steps (src/main.ts `startParts`): health and metrics, the cash register's doors,
 * the fleet's telemetry, and the running daemon's handle.
 */

/** GET /v1/health's sources and GET /metrics (payments, outboxes, host latency, pinpad link, printer, alarms). */
export function watchHealth(held: Held, b: Built) {
  const { config, clock, values } = b.basics;
  const { writeHealth, journal, outbox } = b.store;
  const { sandbox, events, acquirerReach } = b.acquirer;
  const { tables, started, pinpadDevice, keySlots, printing } = b.devices;
  const { timing } = b.engines;
  const operations = b.operations;
  const health = {
    pinpad: pinpadDevice.pinpad,
    ...(started ? { pinpadOpening: started.opening } : {}),
    acquirer: acquirerReach,
    tablesVersion: () => tables.store.currentVersion(),
    clock,
    printer: { kind: values.printer.kind, ...(printing.lastStatus ? { lastStatus: printing.lastStatus } : {}) },
    alarms: () => [...writeHealth.alarms(), ...operations.maintenance.disk.alarms(), ...operations.alarms.alarms()],
    disk: () => operations.maintenance.view(),
    keySlots: () => keySlots.view(),
    paymentBusy: () => timing.lock.busy,
    awaitingHostClose: () => journal.inStates(awaitingHostCloseStates()).filter(awaitsHostClose).length,
  };
  // GET /metrics: payments, outboxes, host latency, pinpad link, printer, alarms (Prometheus).
  const telemetryRef: { queued?: () => { queued: number } } = {};
  const metrics = startMetrics({
    config,
    sandbox,
    journal,
    events,
    pinpad: pinpadDevice.pinpad,
    sources: {
      outbox: () => outbox.depth(),
      telemetry: () => telemetryRef.queued?.() ?? { queued: 0 },
      printerKind: values.printer.kind,
      printer: printing.lastStatus,
      alarms: () => [...operations.maintenance.disk.alarms(), ...operations.alarms.alarms()],
      pinpadStatus: () => pinpadDevice.pinpad.status,
      disk: () => operations.maintenance.view(),
    },
  });
  held.add('the metrics', () => metrics.stop());
  return { health, telemetryRef, metrics };
}
type Watched = ReturnType<typeof watchHealth>;

/** The cash register's doors: the local API (and its LAN listener) and TEF Dial's files. */
export async function openFrontDoors(deps: DaemonDeps, held: Held, b: Built, watched: Watched) {
  const { config, log, clock } = b.basics;
  const { token, screenTokens, journal, outbox } = b.store;
  const { events } = b.acquirer;
  const { started, printing } = b.devices;
  const { timing, engine, profile, qrCodes, qrEngine, pixEngine, cnp, voids } = b.engines;
  const operations = b.operations;
  const { health, metrics } = watched;
  held.check();
  const { api, lan } = await startApi(
    held,
    config,
    { api: deps.api, port: deps.apiPort, log },
    {
      engine,
      qrEngine: profile || qrCodes ? qrEngine : undefined,
      pixEngine,
      cnp,
      cnpEngine: cnp?.engine,
      voids: voids.engine,
      journal,
      pinpadOpen: started?.assertOpen,
      outbox,
      token,
      screenTokens,
      owners: new PaymentOwners(new PaymentOwnerRows(b.store.db)),
      events,
      day: operations.day,
      supervisor: voids.gate,
      receipts: receiptService(config, printing, clock),
      health,
      metrics: () => metrics.metrics.render(),
      onAuthFailure: () => metrics.metrics.authFailed(),
    },
  );
  const tefDeps = { engine, journal, pinpadOpen: started?.assertOpen, busy: () => timing.lock.busy };
  await startTefDial(held, config, log, tefDeps, voids, operations.day);
  return { api, lan };
}
type Doors = Awaited<ReturnType<typeof openFrontDoors>>;

/** Fleet telemetry over MQTT (fleet.mqtt): follows the events, never on a sale's path. */
export async function startFleetTelemetry(deps: DaemonDeps, held: Held, b: Built, watched: Watched) {
  const { config, log, clock } = b.basics;
  const { db, journal } = b.store;
  const { events } = b.acquirer;
  const { tables } = b.devices;
  const { engine, voids, forwarderRef } = b.engines;
  const operations = b.operations;
  const { health, telemetryRef } = watched;
  const fleet = await startFleet({
    config,
    log,
    db,
    journal,
    events,
    operations,
    health: { outbox: b.store.outbox, engine, voids: voids.engine, health },
    init: () => tables.reinitialize('fleet command'),
    outboxFlush: () => forwarderRef.runOnce?.() ?? Promise.resolve(0),
    now: () => clock.now(),
    ...(deps.fleetReconnectMs !== undefined ? { reconnectMs: deps.fleetReconnectMs } : {}),
  });
  if (fleet) {
    telemetryRef.queued = () => fleet.outbox.counts();
    held.add('the fleet client', () => fleet.stop());
  }
  return fleet;
}

/** The running daemon: its parts for the CLI and the tests, and its stop (everything held, newest first). */
export function daemonOf(held: Held, b: Built, doors: Doors, fleet: Awaited<ReturnType<typeof startFleet>>): Daemon {
  const { config, log } = b.basics;
  const { db, journal, outbox, orderIds, apiTokenFile } = b.store;
  const { sandbox, backend } = b.acquirer;
  const { pinpadTarget, started, pinpadDevice, printing } = b.devices;
  const { engine, qrEngine, pixEngine, cnp, voids, printer } = b.engines;
  const { forwarder } = b.outbox;
  const { operations } = b;
  const { api, lan } = doors;
  const virtualPinpad = pinpadTarget.virtual;
  return {
    config,
    db,
    journal,
    outbox,
    orderIds,
    engine,
    qrEngine,
    pixEngine,
    cnpEngine: cnp?.engine,
    voids: voids.engine,
    forwarder,
    backend,
    receipts: printer,
    pinpad: pinpadDevice,
    pinpadOpened: started?.opened ?? Promise.resolve(),
    virtualPinpad,
    virtualPrinter: printing.virtual,
    devices: { pinpad: pinpadTarget.description, printer: printing.description ?? 'none' },
    apiTokenFile,
    sandbox,
    apiUrl: api?.url,
    lanUrl: lan?.url,
    operations,
    fleet: fleet?.client,
    async stop() {
      await held.closeAll();
      log.info('omnipos stopped');
    },
  };
}
