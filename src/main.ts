import type { Dispatcher } from 'undici';
import { EventHub, AcquirerReach } from './api/index.js';
import { LazyAgent } from './main/lazy-agent.js';
import { startAcquirerProbe } from './main/acquirer-probe.js';
import type { PinpadKeySlots } from './main/pinpad-key-slots.js';
import { saleIdentity } from './main/sale-identity.js';
import { merchantProfile } from './main/merchant.js';
import { PinpadQrDisplay } from './adapters/index.js';
import { receiptPrinter, receiptService } from './main/printing.js';
import { startOperations } from './main/operations.js';
import { receiptFactsOf } from './main/maintenance.js';
import { TablesInForce } from './main/tables-in-force.js';
import { systemClock, HostClock } from './core/index.js';
import {
  OutboxForwarder,
  PaymentLock,
  PixEngine,
  QrEngine,
  SaleEngine,
  type EngineEvent,
  type Delivery,
} from './engine/index.js';
import { buildVoids } from './main/voids.js';
import { startCardNotPresent } from './main/card-not-present.js';
import { undoRaceOptions } from './main/money-rules.js';
import { startFleet } from './main/fleet.js';
import { startMetrics } from './main/metrics.js';
import type { JournalKind, OutboxTask } from './store/index.js';
import { Held } from './main/held.js';
import { openStore } from './main/store.js';
import { startEmbeddedSandbox } from './main/sandbox-host.js';
import { connectBackend } from './main/acquirer-connections.js';
import { openDaemonPinpad } from './main/daemon-pinpad.js';
import { startApi } from './main/api.js';
import { startTefDial } from './main/tefdial.js';
import { announceReady, startWatchdog } from './main/systemd-notify.js';
import type { Daemon, DaemonDeps } from './main/daemon.js';

export type { Daemon, DaemonDeps } from './main/daemon.js';
/** The supervisor's token for `omnipos homologation`, which starts the daemon in-process. */
export { ensureSupervisorToken } from './main/voids.js';

export { acquirerUrls } from './main/acquirer-urls.js';

/**
 * The composition root: builds every part from the configuration and wires them: the state
 * directory, the database, the API token, the embedded sandbox host (sandbox environment), the
 * acquirer backend (its kind's entry builds its clients), the outbox forwarder, the sale engine (recovery runs before it takes a
 * sale) and the systemd watchdog.
 *
 * A start-up that fails (a port taken, the state directory held by another daemon, a damaged
 * database…) or is asked to stop closes everything it opened, newest first, before it rejects:
 * the process is left with nothing open and exits.
 */
export async function startDaemon(deps: DaemonDeps): Promise<Daemon> {
  const held = new Held(deps.log, deps.signal);
  try {
    return await startParts(deps, held);
  } catch (e) {
    await held.closeAll();
    throw e;
  }
}

async function startParts(deps: DaemonDeps, held: Held): Promise<Daemon> {
  const { config, log } = deps;
  const env = deps.env ?? process.env;
  // Business time is the host's: the offset is learnt from the acquirer's Date headers.
  const clock = new HostClock(deps.clock ?? systemClock);
  const values = config.values;
  // The state directory: its lock, the database, the API token and the journal's room to commit.
  const store = await openStore(held, config, { clock, log, diskReserveBytes: deps.diskReserveBytes });
  const { db, apiTokenFile, token, screenTokens, writeHealth, journal, outbox, orderIds } = store;

  const sandbox = await startEmbeddedSandbox(held, config, log, deps.sandboxPort);
  if (sandbox) held.add('the embedded sandbox host', () => sandbox.close());
  // made at the first request to the acquirer, not at start (fast start)
  const agent = new LazyAgent({ keepAliveTimeout: 10_000 });
  held.add('the acquirer connections', () => agent.close());
  const dispatcher: Dispatcher = deps.acquirerInterceptors?.length
    ? agent.compose(...deps.acquirerInterceptors)
    : agent;
  // --- API events and health: the engines' events fan out to GET /v1/events (and still to
  // deps.onEvent); what the acquirer last did is kept for GET /v1/health. ---
  const events = new EventHub(journal, () => clock.now(), store.eventLog);
  const acquirerReach = new AcquirerReach(() => clock.now()).watch(agent);
  const onEvent = (event: EngineEvent): void => {
    events.publish(event);
    deps.onEvent?.(event);
  };
  // --- end API events and health ---
  // The acquirer backend the configuration names (acquirer.kind): every port the engines need of the
  // acquirer, in the engine's words; its kind's entry builds its own clients on the shared dispatcher.
  // The pinpad's identity and the tables come later: read late.
  const later: { keySlots?: PinpadKeySlots; tables?: TablesInForce } = {};
  const backend = connectBackend(held, config, {
    sandbox,
    clock,
    log,
    dispatcher,
    reach: acquirerReach,
    terminal: saleIdentity(values.terminal, () => later.keySlots?.identity()),
    onTablesVersion: (version) => later.tables?.onVersion(version),
    db,
    journal,
    kind: deps.acquirerKind,
  });

  // GET /v1/health's acquirer reachability recovers without a sale: the backend's probe with backoff.
  const acquirerProbe = startAcquirerProbe(backend, acquirerReach, clock, log, {
    slowMs: values.alarms.probeSeconds * 1000,
    ...deps.acquirerProbe,
  });
  held.add('the acquirer probe', () => acquirerProbe.stop());

  // The initialization tables in force, and their renewal (a newer version named by a sale, a schedule).
  const tables = await held.step('the initialization tables', () =>
    TablesInForce.open(db, config, backend.initialization, clock, log),
  );
  later.tables = tables;
  held.add('the initialization tables', () => tables.stop());
  // The pinpad as the configuration names it, its secure session (now or in the background), its key slots.
  const { pinpadTarget, started, pinpadDevice, keySlots } = await openDaemonPinpad(held, config, {
    tables: () => tables.current(),
    clock,
    log,
    atStart: deps.pinpadAtStart,
  });
  const virtualPinpad = pinpadTarget.virtual;
  later.keySlots = keySlots;

  // A new payment (card, QR, Pix) starts only with initialization tables in force and room on the disk.
  const canSell = (): void => {
    writeHealth.assertWritable();
    tables.canSell();
  };
  // What every payment engine is told alike: who is there to answer, the cash register's deadline
  // and the margin before the daily close; and, for the QR codes, their validity and watching.
  const timing = {
    attended: values.terminal.mode === 'attended',
    ecrDecisionMs: values.payments.ecrDecisionSeconds * 1000,
    closeMarginMs: values.payments.closeMarginSeconds * 1000,
    undoUnclearDeclines: values.payments.undoUnclearDeclines,
    // One payment at a time per terminal (card, wallet QR, Pix, voids): the host refuses simultaneous ones.
    lock: new PaymentLock(),
  };
  const qrTiming = {
    validityMs: values.qr.validitySeconds * 1000,
    watchMarginMs: values.qr.watchMarginSeconds * 1000,
    pollMs: values.qr.pollMs,
  };
  const printing = await held.step('the receipt printer', () =>
    receiptPrinter(config, log.child({ component: 'printer' })),
  );
  held.add('the receipt printer', () => printing.close());
  const printer = printing.port;
  const forwarderRef: { runOnce?: () => Promise<number> } = {};
  // What the payment engines are built on alike (the store, the printer, the clock, the timing, the outbox's wake-up).
  const onOutbox = (): void => void forwarderRef.runOnce?.();
  const owned = { db, journal, outbox, orderIds, receipt: printer, canSell, clock, ...timing, onOutbox, onEvent };
  const engine = new SaleEngine({
    ...owned,
    ...store.cardLedger,
    card: pinpadDevice.card,
    host: backend.sales,
    log: log.child({ component: 'engine' }),
  });
  // The wallet QR codes: the acquirer's (qr.provider: ecommerce on the omni backend) or the terminal's own.
  const { delivery, qrCodes } = backend;
  const profile = merchantProfile(config);
  // The QR (wallet or Pix) on the pinpad's display while it can be paid: an image, or a text.
  const qrDisplay = new PinpadQrDisplay(pinpadDevice.pinpad, log.child({ component: 'pinpad-display' }));
  const qrEngine = new QrEngine({
    ...owned,
    ...qrTiming,
    host: delivery,
    ...(profile ? { merchant: profile } : {}),
    ...(qrCodes ? { codes: qrCodes } : {}),
    display: qrDisplay,
    log: log.child({ component: 'qr' }),
  });
  const pix = backend.pix;
  const pixEngine = pix
    ? new PixEngine({
        ...owned,
        ...qrTiming,
        host: pix,
        display: qrDisplay,
        log: log.child({ component: 'pix' }),
      })
    : undefined;
  // Sales without the card (cardNotPresent; absent: none): their backend and engine, its recovery run.
  const cnp = startCardNotPresent(
    held,
    config,
    { sandbox, clock, log, dispatcher },
    { ...owned, log: log.child({ component: 'cnp' }) },
  );
  const voids = buildVoids({
    ...store.cardLedger,
    config,
    acquirer: backend,
    clock,
    receipt: printer,
    apiToken: token,
    pinpad: pinpadDevice.pinpad,
    display: qrDisplay,
    tables: () => tables.current(),
    pixRefunds: pix !== undefined,
    // A supervisor lockout is an alarm (health, the webhook), one per lockout.
    onLockout: (l, message) =>
      operations.alarms.notice({
        key: `supervisor-lockout:${l.client}:${l.until}`,
        code: 'SUPERVISOR_LOCKOUT',
        severity: 'warn',
        message,
        context: { client: l.client, lockouts: l.count, until: new Date(l.until).toISOString() },
      }),
    log: log.child({ component: 'void' }),
    ...timing,
    onOutbox,
    onEvent,
  });
  // The machine of each journal kind (src/core/payment-kinds.ts): a kind added there does not compile until it has one.
  const owners: Readonly<Record<JournalKind, { settled: (task: OutboxTask, delivery: Delivery) => void } | undefined>> =
    { sale: engine, qr: qrEngine, pix: pixEngine, void: voids.engine, cnp: cnp?.engine };
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: delivery,
    pix,
    voids: voids.delivery,
    cnp: cnp?.delivery,
    clock,
    log: log.child({ component: 'outbox' }),
    onSettled: (task, result) => {
      const kind = journal.get(task.journalId ?? -1)?.kind;
      if (kind) owners[kind]?.settled(task, result);
    },
    undoRace: undoRaceOptions(values),
    onAlarm: (a) => onEvent({ type: 'alarm', id: a.journalId ?? -1, code: a.code, message: a.message }),
  });
  const outboxLog = log.child({ component: 'outbox' });
  forwarderRef.runOnce = () =>
    forwarder.runOnce().catch((e: unknown) => {
      outboxLog.error({ err: e }, 'outbox pass failed');
      return 0;
    });
  // Stopping: the last outbox pass (once the daemon was ready) after the engines stop.
  let ready = false;
  held.add('the last outbox pass', () => (ready ? forwarder.runOnce().catch(() => 0) : undefined));
  held.add('the payment engines', () => {
    engine.stop();
    qrEngine.stop();
    pixEngine?.stop();
    voids.engine.stop();
  });
  engine.recover();
  qrEngine.recover();
  pixEngine?.recover();
  voids.engine.recover();
  const outboxLoop = setInterval(() => void forwarderRef.runOnce?.(), 1000);
  outboxLoop.unref();
  held.add('the outbox loop', () => clearInterval(outboxLoop));
  // The day's report and close, and the alarms (health, logs, webhook).
  const operations = startOperations({
    config,
    log,
    db,
    journal,
    outbox,
    clock,
    wallClock: deps.clock ?? systemClock,
    events,
    printing,
    pinpad: pinpadDevice.pinpad,
    busy: () => timing.lock.busy,
    receiptOf: receiptFactsOf({ sale: engine, qr: qrEngine, pix: pixEngine, void: voids.engine }),
  });
  held.add('the day book and alarms', () => operations.stop());
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
  held.check();
  const { api, lan } = await startApi(
    held,
    config,
    { api: deps.api, port: deps.apiPort, log },
    {
      engine,
      qrEngine: profile || qrCodes ? qrEngine : undefined,
      pixEngine,
      voids: voids.engine,
      journal,
      pinpadOpen: started?.assertOpen,
      outbox,
      token,
      screenTokens,
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

  // Fleet telemetry over MQTT (fleet.mqtt): follows the events, never on a sale's path.
  const fleet = await startFleet({
    config,
    log,
    db,
    journal,
    events,
    operations,
    health: { outbox, engine, voids: voids.engine, health },
    init: () => tables.reinitialize('fleet command'),
    outboxFlush: () => forwarderRef.runOnce?.() ?? Promise.resolve(0),
    now: () => clock.now(),
    ...(deps.fleetReconnectMs !== undefined ? { reconnectMs: deps.fleetReconnectMs } : {}),
  });
  if (fleet) {
    telemetryRef.queued = () => fleet.outbox.counts();
    held.add('the fleet client', () => fleet.stop());
  }

  startWatchdog(held, env, db, () => ready);

  held.check();
  ready = await announceReady(env, config, log, { apiTokenFile, apiUrl: api?.url, sandbox });
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
