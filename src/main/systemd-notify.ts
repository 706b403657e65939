import type { Config } from '../config/index.js';
import type { Logger } from '../core/log/index.js';
import { sdNotify, watchdogIntervalMs } from '../core/systemd.js';
import type { RunningSandbox } from '../sandbox/index.js';
import type { Db } from '../store/index.js';
import type { Held } from './held.js';

// What the daemon tells systemd of its life: READY=1 (and the log's "omnipos started"), the
// watchdog while it runs, STOPPING=1 when it stops.

type Env = Readonly<Record<string, string | undefined>>;

/**
 * systemd's side of a starting daemon: the watchdog fed while the event loop runs and the database
 * answers (when systemd asks for one), and STOPPING=1 at the stop of a daemon that was ready;
 * both registered in `held`.
 */
export function startWatchdog(held: Held, env: Env, db: Db, ready: () => boolean): void {
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
  held.add('systemd', () => (ready() ? sdNotify(env, 'STOPPING=1') : undefined));
}

/** Tells systemd the daemon is ready (READY=1 with its status line), then logs where it runs; true once told. */
export async function announceReady(
  env: Env,
  config: Config,
  log: Logger,
  where: { apiTokenFile: string; apiUrl: string | undefined; sandbox: RunningSandbox | undefined },
): Promise<true> {
  const values = config.values;
  await sdNotify(env, '--ready', `--status=omnipos ${values.environment}`);
  log.info(
    {
      environment: values.environment,
      stateDir: values.stateDir,
      terminal: values.terminal.terminalId,
      apiTokenFile: where.apiTokenFile,
      api: where.apiUrl,
      sandbox: where.sandbox?.url,
      sandboxWallet: where.sandbox?.urls.wallet,
    },
    'omnipos started',
  );
  return true;
}
