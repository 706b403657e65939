import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { formatBRL } from '../core/index.js';
import { createLogger } from '../core/log/index.js';
import { type EngineEvent, paymentStatus, type PaymentMethod, type SaleStateName } from '../engine/index.js';
import { startDaemon } from '../main.js';
import type { Command } from './context.js';

export const demoSale: Command = {
  path: ['demo', 'sale'],
  summary: 'run a sale on the embedded default (sandbox host, virtual pinpad and printer)',
  usage: `omnipos demo sale [--amount CENTS] [--method credit|debit|voucher] [--confirmation auto|ecr] [--config PATH] [--state-dir DIR]

Runs one card sale end to end on the embedded default and prints each step: the journal row,
the card read (the virtual pinpad's card data, encrypted under the sandbox's DUKPT keys), the
authorization at the embedded sandbox host over loopback HTTP, the chip's finish, the receipt,
and the confirmation delivered through the outbox. The amount's cents choose the sandbox's
answer: 10 approved (default R$ 10,10), 11 declined, 12 no answer (the sale is undone).
The state directory is a new temporary folder unless --state-dir names one.

Example:
  omnipos demo sale
  omnipos demo sale --amount 1012          # no answer from the host: the sale is undone`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        config: { type: 'string' },
        'state-dir': { type: 'string' },
        amount: { type: 'string', default: '1010' },
        method: { type: 'string', default: 'credit' },
        confirmation: { type: 'string', default: 'auto' },
      },
      strict: true,
    });
    const amount = Number(values.amount);
    if (!Number.isSafeInteger(amount) || amount <= 0) {
      ctx.err('omnipos demo sale: --amount must be a whole number of cents\n');
      return 2;
    }
    if (!['credit', 'debit', 'voucher'].includes(values.method) || !['auto', 'ecr'].includes(values.confirmation)) {
      ctx.err('omnipos demo sale: --method is credit, debit or voucher; --confirmation is auto or ecr\n');
      return 2;
    }
    const stateDir = values['state-dir'] ?? mkdtempSync(path.join(tmpdir(), 'omnipos-demo-'));
    const config = loadConfig({
      ...(values.config ? { path: values.config } : {}),
      env: { ...ctx.env, OMNIPOS_STATE_DIR: stateDir },
    });
    const step = (text: string): void => ctx.out(`• ${text}\n`);
    step(`configuration ${config.source} (${config.values.environment}), state in ${stateDir}`);
    let last = 'started' as SaleStateName;
    const onEvent = (e: EngineEvent): void => {
      // the card sale's state events (a void's name the sale they void)
      if (e.type === 'state' && 'status' in e && !('saleId' in e)) {
        last = e.state;
        step(`${e.merchantOrderId}: ${e.input} → ${e.state} (${e.status})`);
      } else if (e.type === 'alarm') step(`ALARM ${e.code}: ${e.message}`);
    };
    const daemon = await startDaemon({
      config,
      log: createLogger({ level: 'warn' }),
      env: {},
      sandboxPort: 0,
      api: false,
      onEvent,
    });
    try {
      if (daemon.sandbox) step(`embedded sandbox host at ${daemon.sandbox.url}`);
      step(`sale of ${formatBRL(amount)} (${values.method}, confirmation ${values.confirmation})`);
      const { entry, done } = await daemon.engine.start({
        amount,
        method: values.method as PaymentMethod,
        installments: 1,
        interest: 'ByMerchant',
        confirmation: values.confirmation as 'auto' | 'ecr',
      });
      await done;
      for (const paper of daemon.virtualPrinter?.receipts ?? []) {
        ctx.out(`\n${paper.lines.map((l) => `    | ${l}`).join('\n')}\n\n`);
      }
      if (last === 'awaiting-decision') {
        step('the cash register confirms (here, the demo does)');
        await daemon.engine.decide(entry.id, 'confirm');
      }
      for (let i = 0; i < 300 && daemon.outbox.depth().pending > 0; i++) {
        await daemon.forwarder.runOnce();
        await new Promise((r) => setTimeout(r, 50));
      }
      const final = daemon.journal.get(entry.id);
      step(
        `result: ${final?.state ?? '?'} (${final ? paymentStatus(final.state as SaleStateName) : '?'}), MerchantOrderId ${entry.merchantOrderId}`,
      );
      return final && ['confirmed', 'declined', 'undone'].includes(final.state) ? 0 : 1;
    } finally {
      await daemon.stop();
    }
  },
};
