import type { Dispatcher } from 'undici';
import type { Acquirer } from '../acquirer/index.js';
import type { AcquirerReach } from '../api/index.js';
import type { Config } from '../config/index.js';
import type { HostClock } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import type { RunningSandbox } from '../sandbox/index.js';
import { acquirerFromConfig } from './acquirer-urls.js';
import type { Held } from './held.js';

/**
 * The acquirer's clients on the daemon's dispatcher, following the host's clock from its Date headers
 * (each one also tells `reach` the host answered); registered in `held`.
 */
export function connectAcquirer(
  held: Held,
  config: Config,
  opts: {
    sandbox: RunningSandbox | undefined;
    clock: HostClock;
    log: Logger;
    dispatcher: Dispatcher;
    reach: AcquirerReach;
  },
): Acquirer {
  const { clock, log } = opts;
  const acquirer = acquirerFromConfig(config, {
    sandbox: opts.sandbox,
    clock,
    log,
    dispatcher: opts.dispatcher,
    onHostDate: (date) => {
      opts.reach.answered();
      if (clock.observe(date))
        log.warn({ offsetMs: clock.offsetMs }, "the terminal's clock differs from the host's: following the host");
    },
  });
  held.add('the acquirer clients', () => acquirer.close());
  return acquirer;
}
