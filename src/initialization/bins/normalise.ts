import { OmniposError } from '../../core/index.js';

/** Every BIN bound and card prefix is compared on 19 digits, the longest PAN (ISO/IEC 7812). */
export const BIN_WIDTH = 19;

/** `InitialBin` on 19 digits: padded on the right with 0s ("476173" → "4761730000000000000"). */
export function normaliseLow(bin: string): string {
  return bin.padEnd(BIN_WIDTH, '0');
}

/** `FinalBin` on 19 digits: padded on the right with 9s ("476173" → "4761739999999999999"). */
export function normaliseHigh(bin: string): string {
  return bin.padEnd(BIN_WIDTH, '9');
}

/** The next 19-digit value, or `"A"` (above every digit string) after 9999999999999999999. */
export function successor(n19: string): string {
  let i = n19.length - 1;
  while (i >= 0 && n19[i] === '9') i--;
  if (i < 0) return 'A';
  return `${n19.slice(0, i)}${String(Number(n19[i]) + 1)}${'0'.repeat(n19.length - 1 - i)}`;
}

/**
 * The digits a lookup may take: a BIN or the known first digits of a card (a masked PAN gives 8),
 * 1 to 19 digits. Throws INVALID_ARGUMENT otherwise.
 */
export function checkDigits(digits: string): void {
  if (!/^\d{1,19}$/.test(digits))
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `BIN lookup: expected 1 to 19 digits, got ${JSON.stringify(digits.slice(0, 24))}`,
      { length: digits.length },
    );
}
