import { OmniposError } from '../core/errors/index.js';

/** An integer command-line option in `min..max`, or undefined when absent; anything else is INVALID_ARGUMENT naming `--name`. */
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
