import type { CliContext } from './context.js';
import { runCommands } from './run-commands.js';
import { runDaemon, startDaemonCommand } from './run-daemon.js';

/**
 * `omnipos run` and `omnipos start` (what the systemd unit runs), as `runCli` runs them, from an
 * entry of their own: the compiled program builds the daemon apart (packaging/bundle.ts), its
 * modules in one file instead of the ~40 chunks the split of every command makes of them, each of
 * which Node resolves, reads, compiles and links on its own (fast start). bin.ts comes
 * here for those two commands, to run.ts for every other.
 */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  return runCommands(argv, ctx, [runDaemon, startDaemonCommand]);
}
