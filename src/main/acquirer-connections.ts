import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import type { Acquirer } from '../acquirer/index.js';
import { AcquirerReach } from '../api/index.js';
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

/** The daemon's connections to the acquirer: its clients, and what it last did (GET /v1/health). */
export interface AcquirerConnections {
  readonly acquirer: Acquirer;
  readonly acquirerReach: AcquirerReach;
}

/**
 * The acquirer's clients over one keep-alive agent (the interceptors composed onto it, when given),
 * following the host's clock from its Date headers; the agent and the clients registered in `held`.
 */
export function connectAcquirer(
  held: Held,
  config: Config,
  opts: {
    sandbox: RunningSandbox | undefined;
    clock: HostClock;
    log: Logger;
    interceptors?: readonly Dispatcher.DispatcherComposeInterceptor[] | undefined;
  },
): AcquirerConnections {
  const { clock, log } = opts;
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  held.add('the acquirer connections', () => agent.close());
  const dispatcher: Dispatcher = opts.interceptors?.length ? agent.compose(...opts.interceptors) : agent;
  // What the acquirer last did is kept for GET /v1/health.
  const acquirerReach = new AcquirerReach(() => clock.now()).watch(agent);
  const acquirer = acquirerFromConfig(config, {
    sandbox: opts.sandbox,
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
  return { acquirer, acquirerReach };
}
