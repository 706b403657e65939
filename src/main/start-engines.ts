import { merchantProfile } from './merchant.js';
import { PinpadQrDisplay, PinpadTypedCardReader } from '../adapters/index.js';
import { startOperations, type Operations } from './operations.js';
import { receiptFactsOf } from './maintenance.js';
import { systemClock } from '../core/index.js';
import { OutboxForwarder, PaymentLock, PixEngine, QrEngine, SaleEngine, type Delivery } from '../engine/index.js';
import { buildVoids } from './voids.js';
import { startCardNotPresent } from './card-not-present.js';
import { undoRaceOptions } from './money-rules.js';
import type { JournalKind, OutboxTask } from '../store/index.js';
import type { Held } from './held.js';
import { type DaemonStore } from './store.js';
import type { DaemonDeps } from './daemon.js';
import type { Basics, AcquirerParts, Devices } from './start-base.js';

/**
 * The daemon's payment steps (src/main.ts `startParts`): the engines, the outbox and its loop, the
 * day's operations and alarms.
 */

/** What the steps built, each step's result under its name. */
export interface Built {
  basics: Basics;
  store: DaemonStore;
  acquirer: AcquirerParts;
  devices: Devices;
  engines: Engines;
  outbox: OutboxParts;
  operations: Operations;
}

/** What is built after the engines but read by them (the supervisor's lockout is an alarm of the day's operations). */
export interface LateParts {
  operations?: Operations;
}

/** The payment engines (card sale, wallet QR, Pix, card-not-present, voids) on the store, the devices and the backend. */
export function buildEngines(held: Held, b: Pick<Built, 'basics' | 'store' | 'acquirer' | 'devices'>, late: LateParts) {
  const { config, log, clock, values } = b.basics;
  const store = b.store;
  const { db, token, journal, outbox, orderIds } = store;
  const { sandbox, onEvent, backend, cnpOffers } = b.acquirer;
  const { tables, pinpadDevice, canSell, printing } = b.devices;
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
    {
      log,
      offers: cnpOffers,
      webservice15Url: sandbox?.webservice15Url,
      typing: new PinpadTypedCardReader(pinpadDevice.pinpad),
    },
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
      late.operations?.alarms.notice({
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
  return { timing, printer, forwarderRef, engine, profile, qrEngine, pix, pixEngine, cnp, voids, delivery, qrCodes };
}
export type Engines = ReturnType<typeof buildEngines>;

/** The outbox forwarder (each settled task back to its kind's machine), the engines' recovery and the outbox loop. */
export function startOutbox(held: Held, b: Pick<Built, 'basics' | 'store' | 'acquirer' | 'engines'>) {
  const { log, clock, values } = b.basics;
  const { db, journal, outbox } = b.store;
  const { onEvent } = b.acquirer;
  const { forwarderRef, engine, qrEngine, pix, pixEngine, cnp, voids, delivery } = b.engines;
  // The machine of each journal kind (src/core/payment-kinds.ts): a kind added there does not compile until it has one.
  const owners: Readonly<Record<JournalKind, { settled: (task: OutboxTask, delivery: Delivery) => void } | undefined>> =
    { sale: engine, qr: qrEngine, pix: pixEngine, void: voids.engine, cnp: cnp?.engine };
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: delivery,
    pix,
    voids: voids.delivery,
    wallet: voids.wallet,
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
  const state = { ready: false };
  held.add('the last outbox pass', () => (state.ready ? forwarder.runOnce().catch(() => 0) : undefined));
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
  return { forwarder, state };
}
export type OutboxParts = ReturnType<typeof startOutbox>;

/** The day's report and close, and the alarms (health, logs, webhook). */
export function startDayAndAlarms(
  deps: DaemonDeps,
  held: Held,
  b: Pick<Built, 'basics' | 'store' | 'acquirer' | 'devices' | 'engines'>,
): Operations {
  const { config, log, clock } = b.basics;
  const { db, journal, outbox } = b.store;
  const { events } = b.acquirer;
  const { printing, pinpadDevice } = b.devices;
  const { timing, engine, qrEngine, pixEngine, cnp, voids } = b.engines;
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
    ...(cnp ? { captureDeadline: (entry) => cnp.engine.captureDeadline(entry) } : {}),
  });
  held.add('the day book and alarms', () => operations.stop());
  return operations;
}
