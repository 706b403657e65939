/** The `omnipos` commands, their public surface (docs/architecture.md "Rings"): the command line's entry (bin.ts runs it) and the program's version. */
export { runCli, version } from './run.js';
export type { CliContext, Command } from './context.js';
