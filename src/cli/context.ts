/** What a command may touch: its output streams and the environment. Tests pass their own. */
export interface CliContext {
  out(text: string): void;
  err(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** `out` is a terminal (progress bars drawn in place); otherwise plain lines. Absent: not a terminal. */
  tty?: boolean;
  /** The terminal's width, when `tty`. */
  columns?: number;
}

export interface Command {
  /** The words that name it, e.g. `['config', 'check']`. */
  path: readonly string[];
  /** One line for `omnipos --help`. */
  summary: string;
  /** The usage text printed by `omnipos <command> --help`. */
  usage: string;
  /** Returns the exit code. Throwing an OmniposError exits with its catalogue exit code. */
  run(args: string[], ctx: CliContext): Promise<number>;
}

export function printJson(ctx: CliContext, value: unknown): void {
  ctx.out(`${JSON.stringify(value, null, 2)}\n`);
}
