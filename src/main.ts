import path from 'node:path';
import type { Dispatcher } from 'undici';
import { buildApp, listenApi, EventHub, AcquirerReach } from './api/index.js';
import { listenLan } from './main/api-lan.js';
import { LazyAgent } from './main/lazy-agent.js';
import { acquirerFromConfig, sandboxListenOptions } from './main/acquirer-urls.js';
import { startAcquirerProbe } from './main/acquirer-probe.js';
import { PinpadKeySlots } from './main/pinpad-key-slots.js';
import { saleIdentity } from './main/sale-identity.js';
import { merchantProfile } from './main/merchant.js';
import { PinpadQrDisplay, openPinpad } from './adapters/index.js';
import { receiptPrinter, receiptService } from './main/printing.js';
import { startOperations } from './main/operations.js';
import { acquirerBackend } from './main/acquirer-backend.js';
import { TablesInForce } from './main/tables-in-force.js';
import { openPinpadTarget } from './main/devices.js';
import { startPinpad, type StartedPinpad } from './main/pinpad-start.js';
import { systemClock, HostClock } from './core/index.js';
import { sdNotify, watchdogIntervalMs } from './core/systemd.js';
import {
  OutboxForwarder,
  PaymentLock,
  PixEngine,
  type PixEvent,
  QrEngine,
  type QrEvent,
  SaleEngine,
  type SaleEvent,
  type VoidEngine,
  type Delivery,
} from './engine/index.js';
import { buildVoids } from './main/voids.js';
import { startFleet } from './main/fleet.js';
import { startMetrics } from './main/metrics.js';
import {
  EventLog,
  Journal,
  MerchantOrderIds,
  Outbox,
  ensureApiToken,
  openCheckedTerminalDatabase,
  type JournalKind,
  type OutboxTask,
  lockStateDir,
  WriteHealth,
} from './store/index.js';
import { Held } from './main/held.js';
import type { Daemon, DaemonDeps } from './main/daemon.js';

export type { Daemon, DaemonDeps } from './main/daemon.js';
/** The supervisor's token for `omnipos homologation`, which starts the daemon in-process. */
export { ensureSupervisorToken } from './main/voids.js';

export { acquirerUrls } from './main/acquirer-urls.js';

/**
 * The composition root: builds every part from the configuration and wires them: the state
 * directory, the database, the API token, the embedded sandbox host (sandbox environment), the
 * acquirer clients, the outbox forwarder, the sale engine (recovery runs before it takes a
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
  // One daemon per state directory: a second one refuses here, before it opens the database.
  const lock = await held.step('the state directory lock', () => lockStateDir(values.stateDir));
  held.add('the state directory lock', () => lock.release());
  const db = await held.step('the database', () =>
    openCheckedTerminalDatabase(values.stateDir, log.child({ component: 'store' })),
  );
  held.add('the database', () => db.close());
  const { file: apiTokenFile, token } = await held.step('the API token', () => ensureApiToken(values.stateDir));
  // The journal's room to commit: no new payment starts while the disk is (nearly) full or a write
  // failed (any table: journal, outbox, events, telemetry) until one commits again; heals by itself.
  const writeHealth = new WriteHealth({
    dir: values.stateDir,
    db,
    log: log.child({ component: 'store' }),
    now: () => new Date(),
    ...(deps.diskReserveBytes !== undefined ? { reserveBytes: deps.diskReserveBytes } : {}),
  });
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const orderIds = new MerchantOrderIds(db, {
    ordinal: values.terminal.orderIdTerminal ?? values.terminal.ordinal,
    clock,
  });

  const sandbox =
    values.environment === 'sandbox' && values.sandbox.embedded
      ? await held.step('the embedded sandbox host', async () => {
          // Imported only here: a production terminal never loads the sandbox host (fast start).
          const { buildSandbox, listenSandbox } = await import('./sandbox/index.js');
          const host = buildSandbox({
            dbFile: path.join(values.stateDir, 'sandbox', 'acquirer.db'),
            log,
            outcomeAttempts: values.sandbox.outcomeAttempts,
            qrValidityMs: values.qr.validitySeconds * 1000,
            // The terminal-built wallet QR needs an acquirer that registers such codes: the sandbox
            // plays one only when this terminal is set to build them (the host's default refuses them, 422.002).
            scenario: { registersTerminalQr: values.qr.provider === 'terminal' },
          });
          try {
            return await listenSandbox(host, sandboxListenOptions(config, deps.sandboxPort));
          } catch (e) {
            host.close();
            throw e;
          }
        })
      : undefined;
  if (sandbox) held.add('the embedded sandbox host', () => sandbox.close());
  // made at the first request to the acquirer, not at start (fast start)
  const agent = new LazyAgent({ keepAliveTimeout: 10_000 });
  held.add('the acquirer connections', () => agent.close());
  const dispatcher: Dispatcher = deps.acquirerInterceptors?.length
    ? agent.compose(...deps.acquirerInterceptors)
    : agent;
  // --- API events and health: the engines' events fan out to GET /v1/events (and still to
  // deps.onEvent); what the acquirer last did is kept for GET /v1/health. ---
  const events = new EventHub(journal, () => clock.now(), new EventLog(db));
  const acquirerReach = new AcquirerReach(() => clock.now()).watch(agent);
  const onEvent = (event: SaleEvent | QrEvent | PixEvent): void => {
    events.publish(event);
    deps.onEvent?.(event);
  };
  // --- end API events and health ---
  const acquirer = acquirerFromConfig(config, {
    sandbox,
    clock,
    log,
    dispatcher,
    onHostDate: (date) => {
      acquirerReach.answered();
      if (clock.observe(date))
        log.warn({ offsetMs: clock.offsetMs }, "the terminal's clock differs from the host's: following the host");
    },
  });
  held.add('the acquirer clients', () => acquirer.close());
  // The acquirer backend the configuration names (acquirer.kind): every port the engines need of
  // the acquirer, in the engine's words. The pinpad's identity and the tables come later: read late.
  const later: { keySlots?: PinpadKeySlots; tables?: TablesInForce } = {};
  const backend = acquirerBackend(config, {
    acquirer,
    terminal: saleIdentity(values.terminal, () => later.keySlots?.identity()),
    onTablesVersion: (version) => later.tables?.onVersion(version),
    db,
    journal,
  });

  // GET /v1/health's acquirer reachability recovers without a sale: the backend's probe with backoff.
  const acquirerProbe = startAcquirerProbe(backend, acquirerReach, clock, log, deps.acquirerProbe);
  held.add('the acquirer probe', () => acquirerProbe.stop());

  // The initialization tables in force, and their renewal (a newer version named by a sale, a schedule).
  const tables = await held.step('the initialization tables', () =>
    TablesInForce.open(db, config, backend.initialization, clock, log),
  );
  later.tables = tables;
  held.add('the initialization tables', () => tables.stop());
  // The pinpad as the configuration names it (src/main/devices.ts, as for the CLI); the embedded
  // virtual pinpad listens on loopback and the driver talks to it over real sockets.
  const pinpadTarget = await held.step('the pinpad', () =>
    openPinpadTarget(values.pinpad.device, { log: log.child({ component: 'pinpad' }) }),
  );
  held.add('the pinpad', () => pinpadTarget.stop());
  const virtualPinpad = pinpadTarget.virtual;
  // `omnipos run` opens the pinpad's secure session in the background (a PPC930's secure OPN takes
  // ~3 s): ready once the API takes requests, card sales refused with PINPAD_OPENING until it is open.
  const started: StartedPinpad | undefined =
    deps.pinpadAtStart === 'background'
      ? startPinpad(config, () => tables.current(), log, pinpadTarget.transport)
      : undefined;
  const pinpadDevice =
    started ??
    (await held.step('the pinpad', () => openPinpad(config, () => tables.current(), log, pinpadTarget.transport)));
  held.add('the pinpad', () => pinpadDevice.close());
  // The DUKPT key slots, read once while the daemon holds the pinpad (GET /v1/health, omnipos diag).
  const keySlots = new PinpadKeySlots(
    pinpadDevice.pinpad,
    { pin: values.pinpad.pinKeySlot, data: values.pinpad.dataKeySlot },
    () => clock.now(),
    log.child({ component: 'pinpad-keys' }),
  ).start();
  later.keySlots = keySlots;
  held.add('the key slot reader', () => keySlots.stop());

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
  const voidsRef: { engine?: VoidEngine } = {};
  const engine = new SaleEngine({
    db,
    journal,
    outbox,
    orderIds,
    card: pinpadDevice.card,
    canSell: () => {
      canSell();
      voidsRef.engine?.assertIdle();
    },
    host: backend.sales,
    receipt: printer,
    clock,
    log: log.child({ component: 'engine' }),
    ...timing,
    onOutbox: () => void forwarderRef.runOnce?.(),
    onEvent,
  });
  // The wallet QR codes: the acquirer's (qr.provider: ecommerce on the omni backend) or the terminal's own.
  const { delivery, qrCodes } = backend;
  const profile = merchantProfile(config);
  // The QR (wallet or Pix) on the pinpad's display while it can be paid: an image, or a text.
  const qrDisplay = new PinpadQrDisplay(pinpadDevice.pinpad, log.child({ component: 'pinpad-display' }));
  const qrEngine = new QrEngine({
    db,
    journal,
    outbox,
    orderIds,
    host: delivery,
    receipt: printer,
    canSell,
    ...(profile ? { merchant: profile } : {}),
    ...(qrCodes ? { codes: qrCodes } : {}),
    display: qrDisplay,
    clock,
    log: log.child({ component: 'qr' }),
    ...timing,
    ...qrTiming,
    onOutbox: () => void forwarderRef.runOnce?.(),
    onEvent,
  });
  const pix = backend.pix;
  const pixEngine = pix
    ? new PixEngine({
        db,
        journal,
        outbox,
        orderIds,
        host: pix,
        display: qrDisplay,
        receipt: printer,
        canSell,
        clock,
        log: log.child({ component: 'pix' }),
        ...timing,
        ...qrTiming,
        onOutbox: () => void forwarderRef.runOnce?.(),
        onEvent,
      })
    : undefined;
  const voids = buildVoids({
    db,
    journal,
    outbox,
    orderIds,
    config,
    acquirer: backend,
    clock,
    receipt: printer,
    apiToken: token,
    pinpad: pinpadDevice.pinpad,
    display: qrDisplay,
    tables: () => tables.current(),
    saleBusy: () => engine.busy,
    pixRefunds: pix !== undefined,
    log: log.child({ component: 'void' }),
    ...timing,
    onOutbox: () => void forwarderRef.runOnce?.(),
    onEvent: (e) => onEvent(e as unknown as SaleEvent),
  });
  voidsRef.engine = voids.engine;
  // The machine of each journal kind (src/core/payment-kinds.ts): a kind added there does not compile until it has one.
  const owners: Readonly<Record<JournalKind, { settled: (task: OutboxTask, delivery: Delivery) => void } | undefined>> =
    { sale: engine, qr: qrEngine, pix: pixEngine, void: voids.engine };
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: delivery,
    pix,
    voids: voids.delivery,
    clock,
    log: log.child({ component: 'outbox' }),
    onSettled: (task, result) => {
      const kind = journal.get(task.journalId ?? -1)?.kind;
      if (kind) owners[kind]?.settled(task, result);
    },
    undoRace: { processingWindowMs: 2 * values.acquirer.timeoutMs, closeMarginMs: timing.closeMarginMs },
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
  });
  held.add('the day book and alarms', () => operations.stop());
  const health = {
    pinpad: pinpadDevice.pinpad,
    ...(started ? { pinpadOpening: started.opening } : {}),
    acquirer: acquirerReach,
    tablesVersion: () => tables.store.currentVersion(),
    clock,
    printer: { kind: values.printer.kind, ...(printing.lastStatus ? { lastStatus: printing.lastStatus } : {}) },
    alarms: () => [...writeHealth.alarms(), ...operations.alarms.alarms()],
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
      alarms: () => operations.alarms.alarms(),
      pinpadStatus: () => pinpadDevice.pinpad.status,
    },
  });
  held.add('the metrics', () => metrics.stop());
  held.check();
  const handler =
    deps.api === false
      ? undefined
      : buildApp({
          engine,
          qrEngine: profile || qrCodes ? qrEngine : undefined,
          pixEngine,
          voids: voids.engine,
          journal,
          pinpadOpen: started?.assertOpen,
          outbox,
          token,
          log: log.child({ component: 'api' }),
          events,
          day: operations.day,
          supervisor: voids.gate,
          receipts: receiptService(config, printing, clock),
          health,
          metrics: () => metrics.metrics.render(),
        });
  const api = handler
    ? await held.step("the cash register's API", () =>
        listenApi(handler, values.api.host, deps.apiPort ?? values.api.port),
      )
    : undefined;
  if (api) held.add("the cash register's API", () => api.close());
  // The optional LAN listener: the same handler over TLS (api.lan).
  const lan = handler
    ? await held.step("the cash register's API on the LAN (api.lan)", () => listenLan(handler, config))
    : undefined;
  if (lan) held.add("the cash register's API on the LAN", () => lan.close());

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

  const interval = watchdogIntervalMs(env);
  const watchdog = interval
    ? setInterval(() => {
        // Fed only while the event loop runs this timer and the database answers.
        db.prepare('SELECT 1').get();
        void sdNotify(env, 'WATCHDOG=1');
      }, interval)
    : undefined;
  watchdog?.unref();
  if (watchdog) held.add('the systemd watchdog', () => clearInterval(watchdog));
  // STOPPING=1 as an assignment: systemd-notify has no --stopping before systemd 253 (Debian 12 ships 252).
  held.add('systemd', () => (ready ? sdNotify(env, 'STOPPING=1') : undefined));

  held.check();
  await sdNotify(env, '--ready', `--status=omnipos ${values.environment}`);
  ready = true;
  log.info(
    {
      environment: values.environment,
      stateDir: values.stateDir,
      terminal: values.terminal.terminalId,
      apiTokenFile,
      api: api?.url,
      sandbox: sandbox?.url,
      sandboxWallet: sandbox?.urls.wallet,
    },
    'omnipos started',
  );
  return {
    config,
    db,
    journal,
    outbox,
    orderIds,
    engine,
    qrEngine,
    pixEngine,
    voids: voids.engine,
    forwarder,
    acquirer,
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
