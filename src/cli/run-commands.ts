/**
 * One CLI invocation against a table of commands: `omnipos --help`, a command's `--help`, its run and
 * its exit code. Apart from the table (src/cli/commands.ts, imported by run.ts) so that the daemon's
 * own entry (daemon-cli.ts) runs `omnipos run` without the table's lazy imports of every command.
 */
import { exitCodeOf, isOmniposError } from '../core/errors/index.js';
import type { CommandEntry } from './commands.js';
import type { CliContext, Command } from './context.js';
import { version } from './version.js';

/** A command, or a row of the table whose module is imported when needed. */
export type Listed = Command | CommandEntry;

const loaded = async (c: Listed): Promise<Command> => ('load' in c ? c.load() : c);

function help(commands: readonly Listed[]): string {
  const width = Math.max(...commands.map((c) => c.path.join(' ').length));
  const lines = commands.map((c) => `  ${c.path.join(' ').padEnd(width)}  ${c.summary}`);
  return `omnipos ${version()}: the payment terminal application (ABECS pinpad, acquirer terminal API, receipts, QR)

Usage: omnipos <command> [options]
       omnipos <command> --help

Commands:
${lines.join('\n')}

Options:
  --help       this text
  --version    the version

Exit codes (every command; a command's --help adds its own from 5 up):
  0 done   1 a bug or an unexpected state   2 the input or configuration is wrong
  3 a device, the daemon or the acquirer is unavailable (retry later)   4 refused by policy

Environment:
  OMNIPOS_CONFIG       configuration file (default: config/omnipos.json, sandbox and virtual devices)
  OMNIPOS_<KEY>        overrides one key, e.g. OMNIPOS_STATE_DIR, OMNIPOS_ACQUIRER__OMNI__QUERY_URL
`;
}

function match(argv: readonly string[], commands: readonly Listed[]): { command: Listed; rest: string[] } | undefined {
  let best: Listed | undefined;
  for (const c of commands) {
    if (c.path.every((w, i) => argv[i] === w) && (!best || c.path.length > best.path.length)) best = c;
  }
  return best ? { command: best, rest: argv.slice(best.path.length) } : undefined;
}

/** Runs one CLI invocation against `commands` and returns its exit code; never throws. */
export async function runCommands(
  argv: readonly string[],
  ctx: CliContext,
  commands: readonly Listed[],
): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    ctx.out(help(commands));
    return argv.length === 0 ? 2 : 0;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    ctx.out(`${version()}\n`);
    return 0;
  }
  const found = match(argv, commands);
  if (!found) {
    ctx.err(`omnipos: unknown command "${argv.join(' ')}"; see omnipos --help\n`);
    return 2;
  }
  try {
    const command = await loaded(found.command);
    if (found.rest.includes('--help') || found.rest.includes('-h')) {
      ctx.out(`${command.usage}\n`);
      return 0;
    }
    return await command.run(found.rest, ctx);
  } catch (e) {
    if (isOmniposError(e)) {
      ctx.err(`omnipos ${found.command.path.join(' ')}: ${e.message} [${e.code}]\n`);
      return exitCodeOf(e);
    }
    if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      ctx.err(`omnipos ${found.command.path.join(' ')}: ${(e as Error).message}\n`);
      return 2;
    }
    ctx.err(`omnipos ${found.command.path.join(' ')}: unexpected error: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  }
}
