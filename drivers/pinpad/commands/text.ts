import { PinpadError } from '../errors.js';

/** A 2x16 message: one string of at most 32 characters, or two lines of at most 16 each. */
export type TwoLineText = string | readonly [string, string];

/** Lays a 2x16 message out as the 32 characters DSP_MSG/CLO_MSG carry (each line space-padded to 16). */
export function twoLines(text: TwoLineText, field: string): string {
  if (typeof text === 'string') {
    if (text.length > 32)
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', `${field}: ${text.length} characters exceed 32`, {
        field,
        length: text.length,
      });
    return text.padEnd(32, ' ');
  }
  const [a, b] = text;
  for (const [i, line] of [a, b].entries()) {
    if (line.length > 16)
      throw new PinpadError(
        'PINPAD_INVALID_ARGUMENT',
        `${field}: line ${i + 1} has ${line.length} characters, at most 16`,
        { field, line: i + 1 },
      );
  }
  return a.padEnd(16, ' ') + b.padEnd(16, ' ');
}
