/**
 * The daemon as a child process for the wallet QR, Pix and card-not-present kill tests. `sale` starts
 * the daemon and one wallet QR sale (Pix with KIND=pix; with KIND=cnp a typed-card sale, CARD_NUMBER,
 * CARD_EXPIRY and CARD_CVV, CAPTURE=false a pre-authorization, CHANGE its capture or void), prints the code as a JSON line, and
 * SIGKILLs itself when the journal commits KILL_AT (a state name, e.g. `approved`: the payment seen,
 * the receipt not out yet). `recover` starts the daemon (recovery runs at start), delivers the outbox
 * (at most PASSES passes), prints the journal and exits.
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
    if (e.type === 'qr') process.stdout.write(`${JSON.stringify({ qrCode: e.qrCode })}\n`);
    if (e.type === 'state' && e.state === killAt) process.kill(process.pid, 'SIGKILL');
  },
});

if (mode === 'sale') {
  const amount = Number(process.env.SALE_AMOUNT ?? '4410');
  // KIND=cnp: the card typed (held in memory only); KIND=pix: a Pix sale (the payer as the e-commerce API requires).
  const card = {
    number: process.env.CARD_NUMBER ?? '',
    holder: 'Maria da Silva',
    expiry: process.env.CARD_EXPIRY ?? '',
    securityCode: process.env.CARD_CVV ?? '',
    brand: 'Visa',
  };
  const { entry, done } =
    process.env.KIND === 'cnp'
      ? await daemon.cnpEngine!.start(
          { amount, installments: 1, capture: process.env.CAPTURE !== 'false', method: 'credit' },
          card,
        )
      : process.env.KIND === 'pix'
        ? await daemon.pixEngine!.start({
            amount,
            payer: { name: 'Maria da Silva', document: '52998224725' },
            confirmation: 'auto',
          })
        : await daemon.qrEngine.start({
            amount,
            method: 'credit',
            installments: 1,
            interest: 'ByMerchant',
            confirmation: 'auto',
          });
  process.stdout.write(`${JSON.stringify({ merchantOrderId: entry.merchantOrderId })}\n`);
  await done;
  // KIND=cnp with CHANGE=capture or void: the pre-authorization's capture or void (CHANGE_AMOUNT: a part).
  const change = process.env.CHANGE;
  if (change === 'capture' || change === 'void') {
    const part = process.env.CHANGE_AMOUNT ? Number(process.env.CHANGE_AMOUNT) : undefined;
    await daemon.cnpEngine!.change(entry.id, change, part);
  }
  // Survived: wait to be killed.
  await new Promise((r) => setTimeout(r, 60_000));
} else {
  // A task that must wait (a race not decided before the close) stays pending: PASSES bounds the wait.
  const passes = Number(process.env.PASSES ?? '400');
  for (let i = 0; i < passes && daemon.outbox.depth().pending > 0; i++) {
    await daemon.forwarder.runOnce();
    await new Promise((r) => setTimeout(r, 50));
  }
  process.stdout.write(`${JSON.stringify({ journal: daemon.journal.list(), outbox: daemon.outbox.depth() })}\n`);
}
await daemon.stop();
