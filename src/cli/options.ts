import { OmniposError } from '../core/index.js';

/* Readers of command-line option values shared by the commands: a bad value is INVALID_ARGUMENT naming the option. */

/** An integer option in `min..max`, or undefined when absent. */
export function intOption(v: string | undefined, name: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `--${name}: expected an integer in ${min}..${max}, got ${JSON.stringify(v)}`,
      { option: name },
    );
  return n;
}

/** The one positional id of a command (a row's id: digits, at most 12), or INVALID_ARGUMENT naming what it is. */
export function idArgument(positionals: readonly string[], what: string): string {
  const id = positionals[0];
  if (positionals.length !== 1 || !id || !/^\d{1,12}$/.test(id))
    throw new OmniposError('INVALID_ARGUMENT', `ID: ${what}`);
  return id;
}

/** `--tcp HOST:PORT` (port 1..65535). */
export function hostPortOption(v: string): { host: string; port: number } {
  const m = /^(.+):(\d{1,5})$/.exec(v);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port < 1 || port > 65535)
    throw new OmniposError('INVALID_ARGUMENT', `--tcp: expected HOST:PORT, got ${JSON.stringify(v)}`, {
      option: 'tcp',
    });
  return { host: m[1]!, port };
}
