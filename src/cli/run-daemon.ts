import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { OmniposError, isOmniposError } from '../core/index.js';
import { createLogger, daemonDestination } from '../core/log/index.js';
import { startDaemon } from '../main.js';
import type { Command } from './context.js';
import { serveUntilStopped } from './run-lifecycle.js';

/** A start that fails prints one line (journald and a technician's terminal read it): the configuration's problems joined. */
function oneLine<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (isOmniposError(e) && e.message.includes('\n'))
      throw new OmniposError(
        e.code,
        e.message.replace(/:?\n/g, (m) => (m.startsWith(':') ? ': ' : '; ')),
        e.context,
        { cause: e },
      );
    throw e;
  }
}

export const runDaemon: Command = {
  path: ['run'],
  summary: 'start the daemon (what the systemd unit runs)',
  usage: `omnipos run [--config PATH]

Starts omnipos with the configuration (default: config/omnipos.json: sandbox host and virtual
devices) and runs until SIGTERM or SIGINT. Logs go to standard output and to
<stateDir>/logs/omnipos.log (rotated at log.maxFileBytes, log.keepFiles kept; log.file false:
standard output alone, for journald). It opens the database, recovers unfinished sales, connects the
pinpad and the printer (the embedded sandbox host and virtual devices by default), serves the
cash register's API (loopback, and api.lan over TLS when configured) and tells systemd it is ready
(Type=notify) and alive (the watchdog, fed while the event loop and the database answer).
A start that fails (a port taken, another daemon on the same state directory, a damaged
database, an unreadable configuration) prints one line naming what and where, closes what it
opened and exits with the code below; SIGTERM at any moment ends it within 20 s.

Exit codes: 0 stopped; 2 the configuration is wrong; 3 a port is taken, the state directory is
held by another daemon, or the database is damaged or cannot be written; 1 anything else.

Example:
  omnipos run
  OMNIPOS_CONFIG=/etc/omnipos/omnipos.json omnipos run`,
  async run(args, ctx) {
    const { values } = parseArgs({ args, options: { config: { type: 'string' } }, strict: true });
    const config = oneLine(() => loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env }));
    const logDir = path.join(config.values.stateDir, 'logs');
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
    const l = config.values.log;
    const log = createLogger({
      level: l.level,
      destination: daemonDestination({
        file: l.file
          ? { file: path.join(logDir, 'omnipos.log'), maxBytes: l.maxFileBytes, keep: l.keepFiles }
          : undefined,
        maxLinesPerSecond: l.maxLinesPerSecond,
      }),
    });
    return serveUntilStopped({
      start: (signal) => startDaemon({ config, log, env: ctx.env, signal, pinpadAtStart: 'background' }),
      onAbortedStart: () => log.info('omnipos stopped during start-up'),
    });
  },
};

/** `omnipos start`: the same as `omnipos run` (the name the issues use). */
export const startDaemonCommand: Command = {
  ...runDaemon,
  path: ['start'],
  summary: 'the same as omnipos run',
  usage: runDaemon.usage.replace(/omnipos run\b/g, 'omnipos start'),
};
