/**
 * The daemon as a child process for the card-not-present kill test, with `cardNotPresent: ecommerce`
 * (OMNIPOS_CARD_NOT_PRESENT__KIND). `sale` starts the daemon and one typed-card sale (CAPTURE=false:
 * a pre-authorization), prints its order id as a JSON line, and SIGKILLs itself when the journal
 * commits KILL_AT (`sending`: before the request leaves); otherwise it waits to be killed. `recover`
 * starts the daemon (recovery runs at start), delivers the outbox (at most PASSES passes), prints
 * the journal and exits.
 */
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startDaemon } from '../../../src/main.js';

const mode = process.argv[2];
const killAt = process.env.KILL_AT ?? '';
const config = loadConfig({ env: process.env });
const daemon = await startDaemon({
  config,
  log: createLogger({
    level: 'debug',
    destination: pino.destination({
      dest: path.join(config.values.stateDir, 'logs', 'omnipos.log'),
      mkdir: true,
      sync: true,
    }),
  }),
  env: {},
  api: false,
  onEvent: (e) => {
    if (e.type === 'state' && e.state === killAt) process.kill(process.pid, 'SIGKILL');
  },
});

if (mode === 'sale') {
  const { entry, done } = await daemon.cnpEngine!.start(
    {
      amount: Number(process.env.SALE_AMOUNT ?? '7700'),
      installments: 1,
      capture: process.env.CAPTURE !== 'false',
      method: 'credit',
    },
    {
      number: process.env.CARD_NUMBER ?? '',
      holder: 'Maria da Silva',
      expiry: process.env.CARD_EXPIRY ?? '',
      securityCode: process.env.CARD_CVV ?? '',
      brand: 'Visa',
    },
  );
  process.stdout.write(`${JSON.stringify({ merchantOrderId: entry.merchantOrderId })}\n`);
  await done;
  process.stdout.write(`${JSON.stringify({ answered: daemon.journal.get(entry.id)?.state })}\n`);
  // Survived: wait to be killed.
  await new Promise((r) => setTimeout(r, 60_000));
} else {
  // PASSES: how many outbox passes at most (a task that must wait stays pending).
  const passes = Number(process.env.PASSES ?? '400');
  for (let i = 0; i < passes && daemon.outbox.depth().pending > 0; i++) {
    await daemon.forwarder.runOnce();
    await new Promise((r) => setTimeout(r, 50));
  }
  process.stdout.write(`${JSON.stringify({ journal: daemon.journal.list(), outbox: daemon.outbox.depth() })}\n`);
}
await daemon.stop();
