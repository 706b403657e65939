import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import {
  Outbox,
  openTerminalDatabase,
  readDamage,
  salvageOutbox,
  type DamageRecord,
  type OutboxTask,
} from '../store/index.js';
import { printJson, type CliContext, type Command } from './context.js';

function open(args: string[], ctx: CliContext, extra: Record<string, { type: 'boolean' }> = {}) {
  const { values } = parseArgs({
    args,
    options: { config: { type: 'string' }, json: { type: 'boolean' }, ...extra },
    strict: true,
  });
  const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
  const db = openTerminalDatabase(config.values.stateDir);
  return { db, outbox: new Outbox(db), json: values.json === true };
}

function printTasks(ctx: CliContext, tasks: readonly OutboxTask[]): void {
  if (tasks.length === 0) ctx.out('the outbox is empty\n');
  for (const t of tasks) {
    const order = typeof t.payload.merchantOrderId === 'string' ? t.payload.merchantOrderId : '?';
    const where = t.deadLetterReason
      ? `DEAD LETTER: ${t.deadLetterReason}`
      : `next try ${t.nextTryAt}${t.lastError ? ` (last: ${t.lastError})` : ''}`;
    ctx.out(`#${t.id} ${t.operation} ${order} attempts ${t.attempts} ${where}\n`);
  }
}

/** The outbox of a damaged database (the kept copy, or --db), read where SQLite can. */
function listSalvaged(ctx: CliContext, file: string, json: boolean, damage: DamageRecord | undefined): number {
  const salvage = salvageOutbox(file);
  if (json) {
    printJson(ctx, {
      damaged: damage ?? null,
      file: salvage.file,
      tasks: salvage.tasks,
      unreadable: salvage.unreadable,
    });
    return salvage.unreadable.length ? 3 : 0;
  }
  if (damage) ctx.out(`the database is damaged (${damage.reason}); read from the copy kept in ${damage.keptIn}\n`);
  printTasks(ctx, salvage.tasks);
  for (const u of salvage.unreadable) ctx.out(`UNREADABLE: ${u}\n`);
  return salvage.unreadable.length ? 3 : 0;
}

export const queueList: Command = {
  path: ['queue', 'list'],
  summary: 'list the outbox: confirmations and undos waiting for the acquirer, and dead letters',
  usage: `omnipos queue list [--json] [--db FILE] [--config PATH]

One line per request still to deliver (operation, sale, attempts, next try, deadline, last error)
and per dead letter (with the host's reason). Safe while the daemon runs.
When the daemon found the database damaged and kept it aside, this reads the kept copy (or the
file --db names) where SQLite can, without writing to it, and lists what it could not read.

Exit codes: 0 listed; 3 part of a damaged outbox could not be read (listed as UNREADABLE).

Example:
  omnipos queue list
  omnipos queue list --json | jq .depth`,
  run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { config: { type: 'string' }, json: { type: 'boolean' }, db: { type: 'string' } },
      strict: true,
    });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const json = values.json === true;
    const damage = readDamage(config.values.stateDir);
    if (values.db !== undefined || damage) {
      const file = values.db ?? damage?.files.find((f) => f.endsWith('.db')) ?? `${damage?.keptIn ?? '.'}/omnipos.db`;
      return Promise.resolve(listSalvaged(ctx, file, json, values.db !== undefined ? undefined : damage));
    }
    const db = openTerminalDatabase(config.values.stateDir);
    try {
      const outbox = new Outbox(db);
      const tasks = outbox.open();
      if (json) printJson(ctx, { depth: outbox.depth(), tasks });
      else printTasks(ctx, tasks);
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
