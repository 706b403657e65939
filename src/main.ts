import { Held } from './main/held.js';
import { openStore } from './main/store.js';
import { announceReady, startWatchdog } from './main/systemd-notify.js';
import type { Daemon, DaemonDeps } from './main/daemon.js';
import { startBasics, connectAcquirer, openDevices } from './main/start-base.js';
import { buildEngines, startOutbox, startDayAndAlarms, type Built, type LateParts } from './main/start-engines.js';
import { watchHealth, openFrontDoors, startFleetTelemetry, daemonOf } from './main/start-doors.js';

export type { Daemon, DaemonDeps } from './main/daemon.js';
/** The supervisor's token for `omnipos homologation`, which starts the daemon in-process. */
export { ensureSupervisorToken } from './operations/index.js';

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

/**
 * The start sequence, in order: each step a function (src/main/start-*.ts) that opens its parts and registers them
 * with `held` (closed newest first on a failed start or at stop).
 */
async function startParts(deps: DaemonDeps, held: Held): Promise<Daemon> {
  const basics = startBasics(deps);
  // The state directory: its lock, the database, the API token and the journal's room to commit.
  const store = await openStore(held, basics.config, {
    clock: basics.clock,
    log: basics.log,
    diskReserveBytes: deps.diskReserveBytes,
  });
  const acquirer = await connectAcquirer(deps, held, { basics, store });
  const devices = await openDevices(deps, held, { basics, store, acquirer });
  const late: LateParts = {};
  const engines = buildEngines(held, { basics, store, acquirer, devices }, late);
  const outbox = startOutbox(held, { basics, store, acquirer, engines });
  const operations = startDayAndAlarms(deps, held, { basics, store, acquirer, devices, engines });
  late.operations = operations;
  const built: Built = { basics, store, acquirer, devices, engines, outbox, operations };
  const watched = watchHealth(held, built);
  const doors = await openFrontDoors(deps, held, built, watched);
  const fleet = await startFleetTelemetry(deps, held, built, watched);
  startWatchdog(held, basics.env, store.db, () => outbox.state.ready);
  held.check();
  outbox.state.ready = await announceReady(basics.env, basics.config, basics.log, {
    apiTokenFile: store.apiTokenFile,
    apiUrl: doors.api?.url,
    sandbox: acquirer.sandbox,
  });
  return daemonOf(held, built, doors, fleet);
}
