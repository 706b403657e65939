import { COMMANDS } from './commands.js';
import type { CliContext } from './context.js';
import { runCommands, type Listed } from './run-commands.js';

export { version } from './version.js';

/** Runs one CLI invocation and returns its exit code; never throws. */
export async function runCli(
  argv: readonly string[],
  ctx: CliContext,
  commands: readonly Listed[] = COMMANDS,
): Promise<number> {
  return runCommands(argv, ctx, commands);
}
