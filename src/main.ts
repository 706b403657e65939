import type { Config } from './config/index.js';
import { systemClock, type Clock } from './core/clock.js';
import type { Logger } from './core/log/index.js';
import { sdNotify, watchdogIntervalMs } from './core/systemd.js';
import { Journal, MerchantOrderIds, Outbox, ensureApiToken, openTerminalDatabase, type Db } from './store/index.js';

/** What a running daemon holds; `stop()` closes it in reverse order. */
export interface Daemon {
  readonly config: Config;
  readonly db: Db;
  readonly journal: Journal;
  readonly outbox: Outbox;
  readonly orderIds: MerchantOrderIds;
  readonly apiTokenFile: string;
  stop(): Promise<void>;
}

export interface DaemonDeps {
  config: Config;
  log: Logger;
  clock?: Clock;
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The composition root: builds every part from the configuration and wires them. Today: the
 * state directory, the database (migrated), the API token and the systemd watchdog. The
 * devices, the sandbox host, the engine and the API join here as they land.
 */
export async function startDaemon(deps: DaemonDeps): Promise<Daemon> {
  const { config, log } = deps;
  const env = deps.env ?? process.env;
  const clock = deps.clock ?? systemClock;
  const values = config.values;
  const db = openTerminalDatabase(values.stateDir, log.child({ component: 'store' }));
  const { file: apiTokenFile } = ensureApiToken(values.stateDir);
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const orderIds = new MerchantOrderIds(db, { ordinal: values.terminal.ordinal, clock });

  const interval = watchdogIntervalMs(env);
  const watchdog = interval
    ? setInterval(() => {
        // Fed only while the event loop runs this timer and the database answers.
        db.prepare('SELECT 1').get();
        void sdNotify(env, 'WATCHDOG=1');
      }, interval)
    : undefined;
  watchdog?.unref();

  await sdNotify(env, '--ready', `--status=omnipos ${values.environment}`);
  log.info(
    { environment: values.environment, stateDir: values.stateDir, terminal: values.terminal.terminalId, apiTokenFile },
    'omnipos started',
  );
  return {
    config,
    db,
    journal,
    outbox,
    orderIds,
    apiTokenFile,
    async stop() {
      if (watchdog) clearInterval(watchdog);
      await sdNotify(env, '--stopping');
      db.close();
      log.info('omnipos stopped');
    },
  };
}
