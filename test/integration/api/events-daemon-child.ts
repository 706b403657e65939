/**
 * The daemon as a child process for the event stream's kill test: embedded sandbox, virtual
 * pinpad and printer, the API on a free loopback port; prints `{"apiUrl": …}` once it listens,
 * then runs until it is killed.
 */
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startDaemon } from '../../../src/main.js';

const config = loadConfig({ env: process.env });
const daemon = await startDaemon({
  config,
  log: createLogger({ level: 'silent' }),
  env: {},
  sandboxPort: 0,
  apiPort: 0,
});
process.stdout.write(`${JSON.stringify({ apiUrl: daemon.apiUrl })}\n`);
await new Promise(() => setInterval(() => undefined, 60_000));
