/**
 * Every ABECS 2.20 return code (RSP_STAT), with its name, as published in §3.1.1 of the
 * specification (guilhermecabral05/abecs-rust protocolo_abecs_2_20.md). Summaries are ours.
 */
export const RETURN_CODES = [
  { code: 0, name: 'ST_OK', summary: 'command executed' },
  { code: 3, name: 'ST_NOSEC', summary: 'secure communication used but not established' },
  { code: 4, name: 'ST_F1', summary: 'function key 1 pressed' },
  { code: 5, name: 'ST_F2', summary: 'function key 2 pressed' },
  { code: 6, name: 'ST_F3', summary: 'function key 3 pressed' },
  { code: 7, name: 'ST_F4', summary: 'function key 4 pressed' },
  { code: 8, name: 'ST_BACKSP', summary: 'clear (backspace) key pressed' },
  { code: 9, name: 'ST_ERRPKTSEC', summary: 'secure packet does not decode, or clear packet while secure' },
  { code: 10, name: 'ST_INVCALL', summary: 'invalid call (a previous step is missing) or unknown command' },
  { code: 11, name: 'ST_INVPARM', summary: 'invalid parameter' },
  { code: 12, name: 'ST_TIMEOUT', summary: 'the time for the operation ran out' },
  { code: 13, name: 'ST_CANCEL', summary: 'cancelled by the cardholder' },
  { code: 19, name: 'ST_MANDAT', summary: 'a mandatory parameter is missing' },
  { code: 20, name: 'ST_TABVERDIF', summary: 'EMV table version differs from the one expected' },
  { code: 21, name: 'ST_TABERR', summary: 'EMV tables could not be written' },
  { code: 40, name: 'ST_INTERR', summary: 'pinpad internal error' },
  { code: 41, name: 'ST_MCDATAERR', summary: 'magnetic stripe read error' },
  { code: 42, name: 'ST_ERRKEY', summary: 'the referenced MK or DUKPT key is not loaded' },
  { code: 43, name: 'ST_NOCARD', summary: 'no chip card in the reader or contactless card at the antenna' },
  { code: 44, name: 'ST_PINBUSY', summary: 'PIN entry temporarily unavailable (security limit)' },
  { code: 45, name: 'ST_RSPOVRFL', summary: 'the response would exceed the maximum size' },
  { code: 46, name: 'ST_ERRCRYPT', summary: 'cryptographic validation failed' },
  { code: 47, name: 'ST_SECURITY', summary: 'operation ended for security reasons' },
  { code: 60, name: 'ST_DUMBCARD', summary: 'chip card inserted but mute' },
  { code: 61, name: 'ST_ERRCARD', summary: 'communication error with the chip or contactless card' },
  { code: 67, name: 'ST_CARDINVALIDAT', summary: 'card invalidated' },
  { code: 68, name: 'ST_CARDPROBLEMS', summary: 'chip card misbehaves; end the transaction' },
  { code: 69, name: 'ST_CARDINVDATA', summary: 'chip card has invalid or inconsistent data' },
  { code: 70, name: 'ST_CARDAPPNAV', summary: 'no EMV application available for the conditions' },
  { code: 71, name: 'ST_CARDAPPNAUT', summary: 'the selected EMV application cannot be used here' },
  { code: 76, name: 'ST_ERRFALLBACK', summary: 'chip error that allows fallback to the stripe' },
  { code: 77, name: 'ST_INVAMOUNT', summary: 'invalid transaction amount' },
  { code: 78, name: 'ST_ERRMAXAID', summary: 'more candidate AIDs than the EMV kernel handles' },
  { code: 79, name: 'ST_CARDBLOCKED', summary: 'card blocked' },
  { code: 80, name: 'ST_CTLSMULTIPLE', summary: 'more than one contactless card at the antenna' },
  { code: 81, name: 'ST_CTLSCOMMERR', summary: 'communication error with the contactless card' },
  { code: 82, name: 'ST_CTLSINVALIDAT', summary: 'contactless card invalidated (reserved)' },
  { code: 83, name: 'ST_CTLSPROBLEMS', summary: 'contactless card misbehaves; end the transaction' },
  { code: 84, name: 'ST_CTLSAPPNAV', summary: 'no contactless application available (reserved)' },
  { code: 85, name: 'ST_CTLSAPPNAUT', summary: 'the selected contactless application cannot be used (reserved)' },
  { code: 86, name: 'ST_CTLSEXTCVM', summary: 'cardholder must act on their device, then present it again' },
  { code: 87, name: 'ST_CTLSIFCHG', summary: 'contactless asks for another interface (chip or stripe)' },
  { code: 100, name: 'ST_MFNFOUND', summary: 'multimedia file not found' },
  { code: 101, name: 'ST_MFERRFMT', summary: 'multimedia file format error' },
  { code: 102, name: 'ST_MFERR', summary: 'multimedia file load error' },
] as const satisfies readonly { code: number; name: `ST_${string}`; summary: string }[];

export type ReturnCodeName = (typeof RETURN_CODES)[number]['name'];

const BY_CODE = new Map<number, (typeof RETURN_CODES)[number]>(RETURN_CODES.map((r) => [r.code, r]));
const BY_NAME = new Map<string, number>(RETURN_CODES.map((r) => [r.name, r.code]));

/** The name of a return code (`ST_INVCALL` for 10), or `ST_UNKNOWN_nnn` for a code the table lacks. */
export function returnCodeName(code: number): string {
  return BY_CODE.get(code)?.name ?? `ST_UNKNOWN_${String(code).padStart(3, '0')}`;
}

/** The code of a return code name, or undefined. */
export function returnCodeOf(name: ReturnCodeName): number {
  return BY_NAME.get(name)!;
}
