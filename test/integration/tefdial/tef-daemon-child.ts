/**
 * The daemon with its TEF Dial interface as a child process for the kill tests: starts from the
 * environment's configuration and runs until SIGTERM; with KILL_AT=state:<name> it SIGKILLs itself
 * when the journal commits that state.
 */
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startDaemon } from '../../../src/main.js';

const target = process.env.KILL_AT ?? '';
const daemon = await startDaemon({
  config: loadConfig({ env: process.env }),
  log: createLogger({ level: 'silent' }),
  env: {},
  api: false,
  onEvent: (e) => {
    if (e.type === 'state' && target === `state:${e.state}`) process.kill(process.pid, 'SIGKILL');
  },
});
process.stdout.write('ready\n');
// The outbox delivers confirmations and undos while the test runs.
const timer = setInterval(() => void daemon.forwarder.runOnce().catch(() => undefined), 50);
process.once('SIGTERM', () => {
  clearInterval(timer);
  void daemon.stop().then(() => process.exit(0));
});
