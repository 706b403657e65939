/**
 * The daemon with its TEF Dial interface as a child process for the kill tests: starts from the
 * environment's configuration and runs until SIGTERM; with KILL_AT=state:<name> it SIGKILLs itself
 * when the journal commits that state; with STOP_AT=state:<name> it stops as systemd stops it (the
 * daemon's own stop) at that state, and exits 0.
 */
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startDaemon } from '../../../src/main.js';

const target = process.env.KILL_AT ?? '';
const stopAt = process.env.STOP_AT ?? '';
let stopping: Promise<void> | undefined;
const starting = startDaemon({
  config: loadConfig({ env: process.env }),
  log: createLogger({ level: 'silent' }),
  env: {},
  api: false,
  onEvent: (e) => {
    if (e.type === 'state' && target === `state:${e.state}`) process.kill(process.pid, 'SIGKILL');
    if (e.type === 'state' && stopAt === `state:${e.state}` && !stopping)
      stopping = starting.then((d) => d.stop()).then(() => process.exit(0));
  },
});
const daemon = await starting;
process.stdout.write('ready\n');
// The outbox delivers confirmations and undos while the test runs.
const timer = setInterval(() => void daemon.forwarder.runOnce().catch(() => undefined), 50);
process.once('SIGTERM', () => {
  clearInterval(timer);
  void daemon.stop().then(() => process.exit(0));
});
