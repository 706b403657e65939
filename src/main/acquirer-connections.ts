import type { Dispatcher } from 'undici';
import type { AcquirerReach } from '../api/index.js';
import type { Config } from '../config/index.js';
import type { HostClock } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import type { RunningSandbox } from '../sandbox/index.js';
import type { Db, Journal } from '../store/index.js';
import { acquirerBackend, type AcquirerKindEntry, type BackendWiring, type OpenBackend } from '../factory/index.js';
import type { Held } from './held.js';

/**
 * The acquirer backend the configuration names (`acquirer.kind`), its clients built by its kind's entry on
 * the daemon's dispatcher, following the host's clock from its Date headers (each one also tells `reach`
 * the host answered); its connections registered in `held`. `kind` replaces the configured kind's entry
 * (a test's stub kind).
 */
export function connectBackend(
  held: Held,
  config: Config,
  opts: {
    sandbox: RunningSandbox | undefined;
    clock: HostClock;
    log: Logger;
    dispatcher: Dispatcher;
    reach: AcquirerReach;
    terminal: BackendWiring['terminal'];
    onTablesVersion: (version: string) => void;
    db: Db;
    journal: Journal;
    kind?: AcquirerKindEntry | undefined;
  },
): Omit<OpenBackend, 'close'> {
  const { clock, log } = opts;
  const open = acquirerBackend(
    config,
    {
      sandbox: opts.sandbox,
      clock,
      log,
      dispatcher: opts.dispatcher,
      onHostDate: (date) => {
        opts.reach.answered();
        if (clock.observe(date))
          log.warn({ offsetMs: clock.offsetMs }, "the terminal's clock differs from the host's: following the host");
      },
      terminal: opts.terminal,
      onTablesVersion: opts.onTablesVersion,
      db: opts.db,
      journal: opts.journal,
    },
    opts.kind,
  );
  held.add('the acquirer clients', () => open.close());
  return { backend: open.backend, ...(open.cardNotPresent ? { cardNotPresent: open.cardNotPresent } : {}) };
}
