import path from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { loadConfig, type Config } from '../config/index.js';
import { systemClock, OmniposError } from '../core/index.js';
import { createLogger } from '../core/log/index.js';
import { DayBook } from '../operations/index.js';
import { receiptText } from '../receipt/index.js';
import { ensureApiToken, Journal, openTerminalDatabase } from '../store/index.js';
import { printJson, type CliContext, type Command } from './context.js';
import { askHidden, readPasswordFile } from './void.js';

function options(args: string[], ctx: CliContext): { config: Config; date: string | undefined; json: boolean } {
  const { values } = parseArgs({
    args,
    options: { config: { type: 'string' }, date: { type: 'string' }, json: { type: 'boolean' } },
    strict: true,
  });
  const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
  return { config, date: values.date, json: values.json === true };
}

export const dayReport: Command = {
  path: ['day', 'report'],
  summary: "the day's report: every sale, void, undo, refund and needs-refund, totals by method, brand and product",
  usage: `omnipos day report [--date YYYY-MM-DD] [--json] [--config PATH]

Reads the journal (safe while the daemon runs) and prints the business day's report (default
today; days run 00:00 to 00:00 America/Sao_Paulo) as the printer lays it out, or as JSON. A
closed day prints its close: from the database, or once retention moved the day out of it
(docs/operations.md, "Retention") from <stateDir>/archive/<year>/<date>.json.gz, its checksum
verified first. The terminal's own clock decides "today" here; the daemon
follows the host's clock (GET /v1/day/report).

Example:
  omnipos day report
  omnipos day report --date 2026-11-21 --json`,
  run(args, ctx) {
    const { config, date, json } = options(args, ctx);
    const db = openTerminalDatabase(config.values.stateDir);
    try {
      const book = new DayBook({
        db,
        journal: new Journal(db),
        clock: systemClock,
        log: createLogger({ level: 'silent' }),
        environment: config.values.environment,
        terminalId: config.values.terminal.terminalId,
        archiveDir: path.join(config.values.stateDir, 'archive'),
      });
      const report = book.report(date);
      if (json) printJson(ctx, report);
      else ctx.out(receiptText(book.document(report), 48));
      return Promise.resolve(0);
    } finally {
      db.close();
    }
  },
};

export const dayClose: Command = {
  path: ['day', 'close'],
  summary: 'close the day (a supervisor authorizes): the running daemon prints the report and archives it (once)',
  usage: `omnipos day close [--date YYYY-MM-DD] [--json] [--supervisor-password-file FILE] [--config PATH]

Asks the running daemon (POST /v1/day/close on its local API, with the token in the state
directory) to close the business day (default today, host time): the report is printed and
archived, never to change. Closing a closed day prints nothing and shows the archived close.
A supervisor authorizes the close: the supervisor password is asked on the terminal (not
echoed) unless --supervisor-password-file names a file holding it; a wrong one exits 4.
Exit 3 when the daemon is not running.

Example:
  omnipos day close`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        config: { type: 'string' },
        date: { type: 'string' },
        json: { type: 'boolean' },
        'supervisor-password-file': { type: 'string' },
      },
      strict: true,
    });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const { date } = values;
    const json = values.json === true;
    const password = values['supervisor-password-file']
      ? readPasswordFile(values['supervisor-password-file'])
      : await askHidden('supervisor password: ', ctx);
    const { host, port } = config.values.api;
    const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const { token } = ensureApiToken(config.values.stateDir);
    let status: number;
    let body: Record<string, unknown>;
    try {
      const res = await request(`${base}/v1/day/close`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-supervisor-password': password,
        },
        body: JSON.stringify(date ? { date } : {}),
        headersTimeout: 60_000,
      });
      status = res.statusCode;
      body = (await res.body.json()) as Record<string, unknown>;
    } catch (e) {
      throw new OmniposError(
        'OPERATIONS_DAEMON_UNREACHABLE',
        `the daemon's API at ${base} did not answer (${(e as Error).message}); is omnipos running?`,
        { url: base },
      );
    }
    if (status >= 400) {
      const err = (body.error ?? {}) as { code?: string; message?: string };
      ctx.err(`omnipos day close: ${err.message ?? `HTTP ${status}`} [${err.code ?? status}]\n`);
      return status === 400 || err.code === 'SUPERVISOR_NOT_CONFIGURED' ? 2 : 4;
    }
    if (json) printJson(ctx, body);
    else {
      const report = body.report as { totals: { net: number }; lines: unknown[] };
      ctx.out(
        `${body.alreadyClosed ? 'already closed' : 'closed'}: ${String(body.date)} at ${String(body.closedAt)}, ${report.lines.length} line(s), net ${report.totals.net} cents, printer: ${String(body.printOutcome)}\n`,
      );
    }
    return 0;
  },
};
