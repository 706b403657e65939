import { runCli } from '../../src/cli/run.js';

/** Runs `omnipos <argv>` in this process with `env` as its environment; its exit code and what it wrote. */
export async function runCliCaptured(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t), env });
  return { code, out, err };
}
