import type { AcquirerFlags } from '../schema/tables.js';
import { allowedByAll, requiredByAny, type Levels } from './levels.js';
import { refuse, type CardRead, type Decision } from './types.js';

/**
 * Typing the card number: the terminal has a keyboard (`Acquirer.HasKeyboard`) and every level
 * allows it (`AllowTypingCardNumber`). Before the number is typed only `Parameters` is known;
 * once the BIN is known, call again with its issuer and row.
 */
export function typingAllowed(acquirer: AcquirerFlags, levels: Levels): Decision {
  if (!acquirer.HasKeyboard)
    return refuse('typing-not-allowed', 'this terminal has no keyboard for typed cards (Acquirer.HasKeyboard)');
  if (!allowedByAll(levels, 'AllowTypingCardNumber'))
    return refuse('typing-not-allowed', 'the tables do not allow typing this card number (AllowTypingCardNumber)');
  return { ok: true };
}

/** Fallback to the stripe after the chip failed: a stripe reader and `AllowFallbackWhenChipReadingFails` at every level. */
export function fallbackAllowed(acquirer: AcquirerFlags, levels: Levels): Decision {
  if (!acquirer.HasMagneticTrackReader)
    return refuse('fallback-not-allowed', 'this terminal has no stripe reader (Acquirer.HasMagneticTrackReader)');
  if (!allowedByAll(levels, 'AllowFallbackWhenChipReadingFails'))
    return refuse(
      'fallback-not-allowed',
      'the tables do not allow a stripe read after a chip failure (AllowFallbackWhenChipReadingFails)',
    );
  return { ok: true };
}

/**
 * A swiped chip card (service code starting 2 or 6, ISO/IEC 7813) must be inserted, unless this
 * swipe is the fallback after a chip failure the tables allow.
 */
export function stripeAccepted(read: CardRead, acquirer: AcquirerFlags, levels: Levels): Decision {
  if (read.entry !== 'magstripe') return { ok: true };
  const chipCard = /^[26]/.test(read.serviceCode ?? '');
  if (chipCard && !read.fallback && acquirer.HasChipReader)
    return refuse('use-chip', 'this card has a chip: insert it');
  if (read.fallback) return fallbackAllowed(acquirer, levels);
  return { ok: true };
}

/** Whether the cashier types the last four digits to match the card (stripe reads, `RequiresTypingLast4Digits`). */
export function lastFourRequired(read: CardRead, levels: Levels): boolean {
  return read.entry === 'magstripe' && requiredByAny(levels, 'RequiresTypingLast4Digits');
}

/** The typed last four digits against the masked PAN's (the pinpad shows the last 4). */
export function checkLastFour(typed: string, maskedPan: string): Decision {
  return typed.length === 4 && maskedPan.endsWith(typed)
    ? { ok: true }
    : refuse('last-four-mismatch', 'the last four digits typed do not match the card');
}

/**
 * The expiry check: for typed cards with `CheckExpiryDateWhenCardNumberIsTyped`, for stripe reads
 * with `CheckExpiryDateWhenMagneticTrackIsRead` (chip cards are checked by the kernel). A card is
 * valid through the last day of its month, in host time. `expiry` is YYMM, `today` the host date.
 */
export function expiryAccepted(
  read: CardRead,
  levels: Levels,
  expiry: string,
  today: { year: number; month: number },
): Decision {
  const flag =
    read.entry === 'typed'
      ? 'CheckExpiryDateWhenCardNumberIsTyped'
      : read.entry === 'magstripe'
        ? 'CheckExpiryDateWhenMagneticTrackIsRead'
        : undefined;
  if (!flag || !requiredByAny(levels, flag)) return { ok: true };
  if (!/^\d{2}(0[1-9]|1[0-2])$/.test(expiry))
    return refuse('expired', `the expiry ${JSON.stringify(expiry)} is not YYMM`);
  const year = 2000 + Number(expiry.slice(0, 2));
  const month = Number(expiry.slice(2));
  if (year * 12 + month < today.year * 12 + today.month)
    return refuse('expired', `the card expired at the end of ${expiry.slice(2)}/${year}`);
  return { ok: true };
}
