import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { Outbox, openTerminalDatabase } from '../store/index.js';
import { printJson, type CliContext, type Command } from './context.js';

function open(args: string[], ctx: CliContext, extra: Record<string, { type: 'boolean' }> = {}) {
  const { values } = parseArgs({ args, options: { config: { type: 'string' }, json: { type: 'boolean' }, ...extra }, strict: true });
  const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
  const db = openTerminalDatabase(config.values.stateDir);
  return { db, outbox: new Outbox(db), json: values.json === true };
}

export const queueList: Command = {
  path: ['queue', 'list'],
  summary: 'list the outbox: confirmations and undos waiting for the acquirer, and dead letters',
  usage: `omnipos queue list [--json] [--config PATH]

One line per request still to deliver (operation, sale, attempts, next try, deadline, last error)
and per dead letter (with the host's reason). Safe while the daemon runs.

Example:
  omnipos queue list
  omnipos queue list --json | jq .depth`,
  run(args, ctx) {
    const { db, outbox, json } = open(args, ctx);
    try {
      const tasks = outbox.open();
      if (json) printJson(ctx, { depth: outbox.depth(), tasks });
      else if (tasks.length === 0) ctx.out('the outbox is empty\n');
      else {
        for (const t of tasks) {
          const order = typeof t.payload.merchantOrderId === 'string' ? t.payload.merchantOrderId : '?';
          const where = t.deadLetterReason ? `DEAD LETTER: ${t.deadLetterReason}` : `next try ${t.nextTryAt}${t.lastError ? ` (last: ${t.lastError})` : ''}`;
          ctx.out(`#${t.id} ${t.operation} ${order} attempts ${t.attempts} ${where}\n`);
        }
      }
      return Promise.resolve(0);
    } finally {
      db.close();
    }
  },
};

export const queueFlush: Command = {
  path: ['queue', 'flush'],
  summary: 'make every waiting request due now (the daemon delivers it at its next pass)',
  usage: `omnipos queue flush [--config PATH]

Moves the next try of every pending request to now, e.g. after the network came back. Dead
letters are not retried: they were answered with a permanent code.

Example:
  omnipos queue flush`,
  run(args, ctx) {
    const { db, outbox } = open(args, ctx);
    try {
      ctx.out(`${outbox.flush(new Date())} request(s) due now\n`);
      return Promise.resolve(0);
    } finally {
      db.close();
    }
  },
};
