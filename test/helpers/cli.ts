import type { CliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/run.js';

/**
 * Runs `omnipos <argv>` in this process with `env` as its environment (and only `commands` when given, as a test of
 * some commands passes them); its exit code and what it wrote.
 */
export async function runCliCaptured(
  argv: string[],
  env: Record<string, string> = {},
  commands?: Parameters<typeof runCli>[2],
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t), env }, commands);
  return { code, out, err };
}

/** A context for `runCli` that keeps what the command writes (`stdout`, `stderr`), with `env` as its environment. */
export function cliContext(
  env: Record<string, string | undefined> = {},
): CliContext & { stdout: string; stderr: string } {
  const c = {
    stdout: '',
    stderr: '',
    env,
    out(t: string) {
      c.stdout += t;
    },
    err(t: string) {
      c.stderr += t;
    },
  };
  return c;
}
