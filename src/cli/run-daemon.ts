import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../core/log/index.js';
import { startDaemon } from '../main.js';
import type { Command } from './context.js';

export const runDaemon: Command = {
  path: ['run'],
  summary: 'start the daemon (what the systemd unit runs)',
  usage: `omnipos run [--config PATH]

Starts omnipos with the configuration (default: config/omnipos.json: sandbox host and virtual
devices) and runs until SIGTERM or SIGINT. Logs go to standard output and to
<stateDir>/logs/omnipos.log. It opens the database, recovers unfinished sales, connects the
pinpad and the printer (the embedded sandbox host and virtual devices by default), serves the
cash register's API (loopback, and api.lan over TLS when configured) and tells systemd it is ready
(Type=notify) and alive (the watchdog, fed while the event loop and the database answer).

Example:
  omnipos run
  OMNIPOS_CONFIG=/etc/omnipos/omnipos.json omnipos run`,
  async run(args, ctx) {
    const { values } = parseArgs({ args, options: { config: { type: 'string' } }, strict: true });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const logDir = path.join(config.values.stateDir, 'logs');
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
    const log = createLogger({
      level: config.values.log.level,
      destination: pino.multistream([
        { stream: process.stdout },
        { stream: pino.destination({ dest: path.join(logDir, 'omnipos.log'), append: true, mkdir: true }) },
      ]),
    });
    // Signals do not keep Node's event loop alive: this timer does, until a stop is asked.
    const keepAlive = setInterval(() => undefined, 1 << 30);
    const stopRequested = new Promise<void>((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    const daemon = await startDaemon({ config, log, env: ctx.env });
    await stopRequested;
    clearInterval(keepAlive);
    await daemon.stop();
    return 0;
  },
};

/** `omnipos start`: the same as `omnipos run` (the name the issues use). */
export const startDaemonCommand: Command = { ...runDaemon, path: ['start'], summary: 'the same as omnipos run', usage: runDaemon.usage.replace(/omnipos run\b/g, 'omnipos start') };
