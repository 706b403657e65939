// One terminal daemon in its own process, for the SIGKILL test: prints "ready" once its fleet client is connected.
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startDaemon } from '../../../src/main.js';

const config = loadConfig({ path: process.argv[2] as string, env: {} });
const daemon = await startDaemon({
  config,
  log: createLogger({ level: 'silent' }),
  env: {},
  api: false,
  fleetReconnectMs: 300,
});
const timer = setInterval(() => {
  if (daemon.fleet?.connected) {
    clearInterval(timer);
    process.stdout.write('ready\n');
  }
}, 50);
