import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../core/log/index.js';
import { startDaemon } from '../main.js';
import type { Command } from './context.js';

export const demoSale: Command = {
  path: ['demo', 'sale'],
  summary: 'run a sale on the embedded default (sandbox host, virtual pinpad and printer)',
  usage: `omnipos demo sale [--config PATH] [--state-dir DIR]

Runs one sale end to end on the embedded default and prints each step. The state directory is a
new temporary folder unless --state-dir names one. What it covers grows with the product: each
step it cannot take yet is printed as such.`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { config: { type: 'string' }, 'state-dir': { type: 'string' } },
      strict: true,
    });
    const stateDir = values['state-dir'] ?? mkdtempSync(path.join(tmpdir(), 'omnipos-demo-'));
    const config = loadConfig({
      ...(values.config ? { path: values.config } : {}),
      env: { ...ctx.env, OMNIPOS_STATE_DIR: stateDir },
    });
    const step = (text: string): void => ctx.out(`• ${text}\n`);
    step(`configuration ${config.source} (${config.values.environment})`);
    const log = createLogger({ level: 'warn' });
    const daemon = await startDaemon({ config, log, env: {} });
    try {
      step(`state directory ${stateDir}: database migrated, API token in ${daemon.apiTokenFile}`);
      const orderId = await daemon.orderIds.next();
      const entry = daemon.journal.open({
        kind: 'sale',
        merchantOrderId: orderId,
        state: 'started',
        amount: 1010,
        input: 'demo request R$ 10,10',
        at: new Date(),
      });
      step(`sale R$ 10,10 journaled as MerchantOrderId ${orderId} (state ${entry.state})`);
      step('not yet: card read on the virtual pinpad, authorization at the sandbox host, receipt, confirmation');
      daemon.journal.transition(entry.id, { from: 'started', to: 'aborted', input: 'demo ends', at: new Date() });
      step('sale aborted before anything left the terminal (nothing charged)');
    } finally {
      await daemon.stop();
    }
    return 0;
  },
};
