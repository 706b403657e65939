import { requiredByAny, type Levels } from './levels.js';
import type { CardRead } from './types.js';

/**
 * Who asks for the password (PIN):
 * - `required`: the terminal asks (stripe: `GPN` before `GTK`); for chip and contactless it means
 *   the card's CVM result must show a PIN (no PIN bypass);
 * - `card`: chip and contactless: the card's CVM list decides, inside the pinpad (`GOX`);
 * - `none`: no password (typed sales go without one, as the omni document's typed credit sale).
 */
export type PasswordDecision = 'required' | 'card' | 'none';

/**
 * The password rule, from the tables' bits:
 * - `RequiresPassword`: every entry but typed;
 * - `RequiresPasswordExceptForEMVCard`: stripe reads only; a card read by its chip (contact or
 *   contactless) is left to its CVM list;
 * - `InterpretsLastDigitOfSecurityCode` (the service code's last digit, ISO/IEC 7813): on a stripe
 *   read, 0, 3, 5, 6 and 7 ask for a PIN (6 and 7: "if a PIN pad is present", which it always is).
 */
export function passwordRule(read: CardRead, levels: Levels): PasswordDecision {
  if (read.entry === 'typed') return 'none';
  const chip = read.entry === 'emv' || read.entry === 'contactlessEmv' || read.entry === 'contactlessMagstripe';
  if (requiredByAny(levels, 'RequiresPassword')) return 'required';
  if (chip) return 'card';
  if (requiredByAny(levels, 'RequiresPasswordExceptForEMVCard')) return 'required';
  if (requiredByAny(levels, 'InterpretsLastDigitOfSecurityCode') && /^..[03567]$/.test(read.serviceCode ?? ''))
    return 'required';
  return 'none';
}

/** The omni `SecurityCodeStatus` values. */
export type SecurityCodeStatus = 'Collected' | 'Unreadable' | 'Nonexistent';

/**
 * The security code (CVV) rule: asked for typed cards with `RequiresSecurityCodeWhenCardNumberIsTyped`
 * and for stripe reads with `RequiresSecurityCodeWhenMagneticTrackIsRead` (never for chip); the
 * cashier may answer "unreadable" or "the card has none" only with
 * `EnableAdditionalSecurityCodeOptions_Unreadable_NoCode`.
 */
export function securityCodeRule(read: CardRead, levels: Levels): { ask: boolean; statuses: SecurityCodeStatus[] } {
  const flag =
    read.entry === 'typed'
      ? 'RequiresSecurityCodeWhenCardNumberIsTyped'
      : read.entry === 'magstripe'
        ? 'RequiresSecurityCodeWhenMagneticTrackIsRead'
        : undefined;
  if (!flag || !requiredByAny(levels, flag)) return { ask: false, statuses: [] };
  const extra = requiredByAny(levels, 'EnableAdditionalSecurityCodeOptions_Unreadable_NoCode');
  return { ask: true, statuses: extra ? ['Collected', 'Unreadable', 'Nonexistent'] : ['Collected'] };
}
