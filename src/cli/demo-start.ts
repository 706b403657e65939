import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { createLogger } from '../core/log/index.js';
import { startDaemon, type Daemon } from '../main.js';
import type { CliContext, Command } from './context.js';
import { apiAt } from './daemon-api.js';
import { runCardSale } from './sale.js';

/** True when nothing listens on loopback `port` (0 is always free). */
function portFree(port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const s = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Waits until the virtual printer has cut `count` receipts (the customer's and the merchant's copy), or `ms` passed. */
async function receiptsOut(daemon: Daemon, count: number, ms: number): Promise<void> {
  for (let waited = 0; waited < ms && (daemon.virtualPrinter?.receipts.length ?? count) < count; waited += 50)
    await new Promise((r) => setTimeout(r, 50));
}

function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const keepAlive = setInterval(() => undefined, 1 << 30);
    const stop = (signal: string): void => {
      clearInterval(keepAlive);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(signal);
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
  });
}

export const demoStart: Command = {
  path: ['demo'],
  summary: 'the demo (npm start): one chip sale on the embedded default, then the screens until Ctrl-C',
  usage: `omnipos demo [--amount CENTS] [--method credit|debit|voucher] [--port N] [--state-dir DIR] [--once] [--config PATH]

What \`npm start\` runs on a fresh machine, with nothing to install besides Node: starts the daemon
on the configured default — the embedded sandbox host (the acquirer, on loopback), the virtual
pinpad (ABECS over TCP on loopback, behind the secure channel: no socat needed) and the virtual
printer — then runs one chip card sale through the cash register's API as \`omnipos sale\` does,
showing each pinpad prompt and step, and prints the receipt as the virtual printer cut it (the
PAN masked). Then it prints the screens' address (http://127.0.0.1:PORT/screens/cashier.html#token=…)
and the API's, and keeps the daemon running for them until Ctrl-C; \`omnipos sale\` in another
terminal sells on it. --once stops after the sale instead. The state (database, token) is the
configuration's state directory (var/ for the default) unless --state-dir names another; --port
is the API's (default: the configuration's, 7878; a free one when taken).

Example:
  npm start
  omnipos demo --amount 1011 --once            # the sandbox declines cents 11

Exit codes: as omnipos sale's for the demo sale with --once (0 approved and confirmed); 0 after Ctrl-C; 2 bad arguments; 3 the daemon could not start.`,
  async run(args, ctx: CliContext) {
    const { values } = parseArgs({
      args,
      options: {
        amount: { type: 'string', default: '1010' },
        method: { type: 'string', default: 'credit' },
        port: { type: 'string' },
        'state-dir': { type: 'string' },
        once: { type: 'boolean', default: false },
        config: { type: 'string' },
      },
      strict: true,
    });
    const amount = Number(values.amount);
    if (!/^\d+$/.test(values.amount) || !Number.isSafeInteger(amount) || amount < 1)
      throw new OmniposError('INVALID_ARGUMENT', '--amount: a whole number of cents above 0', { option: '--amount' });
    if (!['credit', 'debit', 'voucher'].includes(values.method))
      throw new OmniposError('INVALID_ARGUMENT', '--method: credit, debit or voucher', { option: '--method' });
    const env = { ...ctx.env, ...(values['state-dir'] ? { OMNIPOS_STATE_DIR: values['state-dir'] } : {}) };
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env });
    const apiPort = values.port === undefined ? config.values.api.port : Number(values.port);
    if (!Number.isInteger(apiPort) || apiPort < 0 || apiPort > 65535)
      throw new OmniposError('INVALID_ARGUMENT', '--port: 0 to 65535', { option: '--port' });
    const say = (t: string): void => ctx.out(`• ${t}\n`);
    say(`configuration ${config.source} (${config.values.environment}), state in ${config.values.stateDir}`);
    const log = createLogger({ level: 'warn', destination: process.stderr });
    // Another demo or daemon on the same ports: this one takes free ports instead.
    const sandboxPort = (await portFree(config.values.sandbox.port)) ? config.values.sandbox.port : 0;
    const freeApiPort = (await portFree(apiPort)) ? apiPort : 0;
    if (sandboxPort !== config.values.sandbox.port || freeApiPort !== apiPort)
      say('a port the demo uses is taken (another omnipos?): using free ports instead');
    const daemon = await startDaemon({ config, log, env: {}, sandboxPort, apiPort: freeApiPort });
    try {
      if (daemon.sandbox) say(`the acquirer: the embedded sandbox host at ${daemon.sandbox.url}`);
      if (daemon.virtualPinpad)
        say(
          `the pinpad: the virtual pinpad on tcp://127.0.0.1:${daemon.virtualPinpad.port} (ABECS, secure channel ${daemon.pinpad.pinpad.secure.secure ? 'up' : 'down'})`,
        );
      if (daemon.virtualPrinter) say('the printer: the virtual printer (its paper is shown below)');
      const token = readFileSync(daemon.apiTokenFile, 'utf8').trim();
      const api = apiAt(daemon.apiUrl!, token, daemon.apiTokenFile);
      say(`the cash register's API at ${daemon.apiUrl}`);
      const before = daemon.virtualPrinter?.receipts.length ?? 0;
      let code: number;
      try {
        code = await runCardSale(
          api,
          { amount, method: values.method, installments: 1, interest: 'ByMerchant', confirmation: 'auto' },
          ctx,
          false,
        );
      } finally {
        await api.close();
      }
      // Declined and cancelled sales print nothing.
      if (code === 0) await receiptsOut(daemon, before + 1, 5000);
      for (const paper of (daemon.virtualPrinter?.receipts ?? []).slice(before))
        ctx.out(`\n${paper.lines.map((l) => `    | ${l}`).join('\n')}\n\n`);
      if (values.once) return code;
      const fragment = `#token=${encodeURIComponent(token)}`;
      ctx.out(`\nThe daemon keeps running (Ctrl-C stops it):\n`);
      ctx.out(`  cashier screen   ${daemon.apiUrl}/screens/cashier.html${fragment}\n`);
      ctx.out(`  kiosk screen     ${daemon.apiUrl}/screens/kiosk.html${fragment}\n`);
      ctx.out(`  API              ${daemon.apiUrl}/v1/health  (Authorization: Bearer ${token})\n`);
      ctx.out(
        `  another sale     npm run omnipos -- sale --amount 1010${values['state-dir'] ? ` (with OMNIPOS_STATE_DIR=${config.values.stateDir})` : ''}${daemon.apiUrl?.endsWith(`:${config.values.api.port}`) ? '' : ` (with OMNIPOS_API__PORT=${new URL(daemon.apiUrl!).port})`}\n`,
      );
      const signal = await untilStopped();
      say(`${signal}: stopping`);
      return 0;
    } finally {
      await daemon.stop();
    }
  },
};
