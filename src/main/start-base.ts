import type { Dispatcher } from 'undici';
import { EventHub, AcquirerReach } from '../api/index.js';
import { LazyAgent } from './lazy-agent.js';
import { startAcquirerProbe } from './acquirer-probe.js';
import type { PinpadKeySlots } from './pinpad-key-slots.js';
import { saleIdentity } from './sale-identity.js';
import { receiptPrinter } from './printing.js';
import { TablesInForce } from './tables-in-force.js';
import { systemClock, HostClock } from '../core/index.js';
import { type EngineEvent } from '../engine/index.js';
import type { Held } from './held.js';
import { startEmbeddedSandbox } from './sandbox-host.js';
import { connectBackend } from './acquirer-connections.js';
import { openDaemonPinpad } from './daemon-pinpad.js';
import type { DaemonDeps } from './daemon.js';
import type { DaemonStore } from './store.js';

/**
 * The daemon's first steps (src/main.ts `startParts`): the basics every step reads, the acquirer's
 * connections and backend, the tables, the pinpad and the printer.
 */

/** The configuration, the log and the business clock every step reads. */
export function startBasics(deps: DaemonDeps) {
  const { config, log } = deps;
  const env = deps.env ?? process.env;
  // Business time is the host's: the offset is learnt from the acquirer's Date headers.
  const clock = new HostClock(deps.clock ?? systemClock);
  const values = config.values;
  return { config, log, env, clock, values };
}
export type Basics = ReturnType<typeof startBasics>;

/** The embedded sandbox, the acquirer's connections, the API's events and the backend of acquirer.kind. */
export async function connectAcquirer(deps: DaemonDeps, held: Held, b: { basics: Basics; store: DaemonStore }) {
  const { config, log, clock, values } = b.basics;
  const { db, journal } = b.store;
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
  const events = new EventHub(journal, () => clock.now(), b.store.eventLog);
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
  const { backend, cardNotPresent: cnpOffers } = connectBackend(held, config, {
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
  return { sandbox, dispatcher, events, acquirerReach, onEvent, later, backend, cnpOffers };
}
export type AcquirerParts = Awaited<ReturnType<typeof connectAcquirer>>;

/** The initialization tables in force, the pinpad and the receipt printer. */
export async function openDevices(
  deps: DaemonDeps,
  held: Held,
  b: { basics: Basics; store: DaemonStore; acquirer: AcquirerParts },
) {
  const { config, log, clock } = b.basics;
  const { db, writeHealth } = b.store;
  const { backend, later } = b.acquirer;
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
  later.keySlots = keySlots;

  // A new payment (card, QR, Pix) starts only with initialization tables in force and room on the disk.
  const canSell = (): void => {
    writeHealth.assertWritable();
    tables.canSell();
  };
  const printing = await held.step('the receipt printer', () =>
    receiptPrinter(config, log.child({ component: 'printer' })),
  );
  held.add('the receipt printer', () => printing.close());
  return { tables, pinpadTarget, started, pinpadDevice, keySlots, canSell, printing };
}
export type Devices = Awaited<ReturnType<typeof openDevices>>;
