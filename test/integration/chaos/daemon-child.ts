/**
 * The daemon as a child process for kill tests. `sale` starts the daemon and one sale, and
 * SIGKILLs itself when the journal commits KILL_AT (`state:<name>`, optionally `+<ms>` to die
 * that long after the commit); `recover` starts the daemon (recovery runs at start), delivers
 * the outbox, prints the journal as JSON and exits.
 */
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startDaemon } from '../../../src/main.js';

const mode = process.argv[2];
const killAt = process.env.KILL_AT ?? '';
const [target, delay] = killAt.split('+');
const config = loadConfig({ env: process.env });
// RECEIPT_ANSWER=yes|no: the cashier's answer to each receipt question (recovery of a sale found printing asks it).
const questions: number[] = [];
const daemon = await startDaemon({
  config,
  // Everything at debug into the state directory, so the test can scan the logs for card data.
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
    if (e.type === 'receipt-question') questions.push(e.id);
    if (e.type !== 'state' || target !== `state:${e.state}`) return;
    if (delay) setTimeout(() => process.kill(process.pid, 'SIGKILL'), Number(delay));
    else process.kill(process.pid, 'SIGKILL');
  },
});

if (mode === 'sale') {
  const amount = Number(process.env.SALE_AMOUNT ?? '1010');
  const confirmation = (process.env.SALE_CONFIRMATION ?? 'auto') as 'auto' | 'ecr';
  const { entry, done } = await daemon.engine.start({
    amount,
    method: 'credit',
    installments: 1,
    interest: 'ByMerchant',
    confirmation,
  });
  process.stdout.write(`${JSON.stringify({ merchantOrderId: entry.merchantOrderId })}\n`);
  await done;
  for (let i = 0; i < 200 && daemon.outbox.depth().pending > 0; i++) {
    await daemon.forwarder.runOnce();
    await new Promise((r) => setTimeout(r, 25));
  }
  // Survived: wait to be killed (a deadline or a delayed kill may still come).
  await new Promise((r) => setTimeout(r, 5000));
} else {
  // Until the outbox is empty and no sale waits for a deadline (a decision due in a second). An undo the host finds
  // nothing for is never final before the close of the day: three attempts that decide nothing end the wait (the
  // test then holds that the host has no record of the sale), not 400 passes of the same answer.
  const answer = process.env.RECEIPT_ANSWER;
  if (answer) for (const id of questions) await daemon.engine.receiptAnswer(id, answer === 'yes');
  if (questions.length > 0) process.stderr.write(`receipt questions: ${JSON.stringify(questions)}\n`);
  const open = () => daemon.journal.inStates(['awaiting-decision', 'printing']).length;
  const undecided = (): boolean => {
    const tasks = daemon.outbox.open();
    return tasks.length > 0 && tasks.every((t) => t.operation === 'sale.undo' && t.attempts >= 3);
  };
  for (let i = 0; i < 400 && (daemon.outbox.depth().pending > 0 || open() > 0) && !(open() === 0 && undecided()); i++) {
    await daemon.forwarder.runOnce();
    await new Promise((r) => setTimeout(r, 50));
  }
  process.stdout.write(`${JSON.stringify({ journal: daemon.journal.list(), outbox: daemon.outbox.depth() })}\n`);
}
await daemon.stop();
