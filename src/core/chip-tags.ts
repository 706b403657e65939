/**
 * The chip's EMV tags omnipos asks for, journals, sends and lets through the log scrubber: one list,
 * read by the card adapter (GOX and FCX tag lists), the sale engine (what an undo may carry before FCX)
 * and the log scrubber (opaque hex, not card data). None is card data: a PAN (5A), track equivalents
 * (57, 9F6B, 56), the cardholder's name (5F20), the expiry (5F24) and discretionary data (9F1F, 9F20)
 * are never here. In src/core, the lowest ring the three may import (eslint.layers.js).
 */

/**
 * The first tag list (GOX's SPE_TAGLIST, in the order sent): what the sale's EmvData carries (the
 * acquirer's Emv table TagsFirst; the sandbox's in tables/initialization/sandbox-tables.json).
 */
export const CHIP_TAGS_FIRST = [
  '5F2A', // transaction currency code
  '5F34', // PAN sequence number
  '82', // application interchange profile
  '84', // dedicated file name
  '95', // terminal verification results
  '9A', // transaction date
  '9C', // transaction type
  '9F02', // amount, authorised
  '9F03', // amount, other
  '9F09', // application version number (terminal)
  '9F10', // issuer application data
  '9F1A', // terminal country code
  '9F1E', // interface device serial number
  '9F26', // application cryptogram
  '9F27', // cryptogram information data
  '9F33', // terminal capabilities
  '9F34', // cardholder verification method results
  '9F35', // terminal type
  '9F36', // application transaction counter
  '9F37', // unpredictable number
  '9F41', // transaction sequence counter
  '9F53', // transaction category code
] as const;

/** The second tag list (FCX's SPE_TAGLIST, in the order sent): what confirmation and undo carry. */
export const CHIP_TAGS_SECOND = ['95', '9B', '9F26', '9F27', '9F10', '9F36', '9F37', '8A', '9F5B'] as const;

/** The issuer's answer: scripts (71, 72) and authentication data (91), passed back to the card by FCX. */
export const CHIP_TAGS_ISSUER = ['71', '72', '91'] as const;

/**
 * The request tags an undo may carry before the card has finished (FCX): the first list, the
 * application identifier (4F) and the transaction status information (9B). Journaled with the card
 * read, before the sale leaves (the store's guard accepts them as opaque hex).
 */
export const CHIP_UNDO_REQUEST_TAGS: ReadonlySet<string> = new Set(['4F', ...CHIP_TAGS_FIRST, '9B']);

/**
 * Every tag above: transaction data, cryptograms and their counters, the issuer's answer and
 * identifiers of the terminal or the application, whose bytes are random enough to look like a PAN
 * (the log scrubber's opaque EMV fields).
 */
export const CHIP_TAGS_OPAQUE: ReadonlySet<string> = new Set([
  ...CHIP_UNDO_REQUEST_TAGS,
  ...CHIP_TAGS_SECOND,
  ...CHIP_TAGS_ISSUER,
]);
