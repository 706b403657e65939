import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import type { Acquirer } from '../acquirer/index.js';
import type { AcquirerReach } from '../api/index.js';
import type { Config } from '../config/index.js';
import type { HostClock } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import type { RunningSandbox } from '../sandbox/index.js';
import { acquirerFromConfig } from './acquirer-urls.js';
import type { Held } from './held.js';

/**
 * undici's Agent alone (fast start): its module and the pools and clients it makes, 23 files,
 * not the 110 of the package's index (request API, fetch, caches, mocks), which the acquirer
 * clients load at their first request (src/acquirer/http.ts); the same class either way (one
 * CommonJS module cache), and the index adds its request methods to its prototype then.
 */
const Agent = createRequire(import.meta.url)('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;

/**
 * The daemon's one keep-alive agent to the acquirer, registered in `held`, and the dispatcher the
 * clients use: the agent, with the interceptors composed onto it when given.
 */
export function acquirerAgent(
  held: Held,
  interceptors: readonly Dispatcher.DispatcherComposeInterceptor[] | undefined,
): { agent: UndiciAgent; dispatcher: Dispatcher } {
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  held.add('the acquirer connections', () => agent.close());
  const dispatcher: Dispatcher = interceptors?.length ? agent.compose(...interceptors) : agent;
  return { agent, dispatcher };
}

/**
 * The acquirer's clients on that dispatcher, following the host's clock from its Date headers
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
