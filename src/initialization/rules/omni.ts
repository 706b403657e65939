import type { PasswordDecision } from './cardholder.js';
import type { CardRead } from './types.js';

/** The omni card node's `InputMode`. */
export type InputMode = 'Typed' | 'MagStripe' | 'Emv' | 'ContactlessMagStripe' | 'ContactlessEmv';
/** The omni card node's `AuthenticationMethod`. */
export type AuthenticationMethod = 'NoPassword' | 'OnlineAuthentication' | 'OfflineAuthentication';

/** `InputMode` from how the card was read; a fallback is `MagStripe` with `IsFallback`. */
export function inputModeOf(read: Pick<CardRead, 'entry' | 'fallback'>): { InputMode: InputMode; IsFallback: boolean } {
  const mode: InputMode = {
    typed: 'Typed',
    magstripe: 'MagStripe',
    emv: 'Emv',
    contactlessMagstripe: 'ContactlessMagStripe',
    contactlessEmv: 'ContactlessEmv',
  }[read.entry] as InputMode;
  return { InputMode: mode, IsFallback: read.entry === 'magstripe' && read.fallback === true };
}

/** The card's CVM result as the chip command reports it (GOX/GOC: PIN verified offline, PIN captured for online). */
export interface CvmResult {
  pinOffline: boolean;
  pinOnline: boolean;
}

/**
 * `AuthenticationMethod`: for chip and contactless, from the card's CVM result (PIN verified
 * offline → OfflineAuthentication; PIN captured for the host → OnlineAuthentication; neither →
 * NoPassword, the mapping of the acquirer's public manual); for stripe and typed, from the
 * tables' bits: a password the terminal asked for (captured with GPN, verified by the host) →
 * OnlineAuthentication, otherwise NoPassword.
 */
export function authenticationMethodOf(
  read: Pick<CardRead, 'entry'>,
  password: PasswordDecision,
  cvm?: CvmResult,
): AuthenticationMethod {
  if (read.entry === 'emv' || read.entry === 'contactlessEmv' || read.entry === 'contactlessMagstripe') {
    if (cvm?.pinOffline) return 'OfflineAuthentication';
    if (cvm?.pinOnline) return 'OnlineAuthentication';
    return 'NoPassword';
  }
  return password === 'required' ? 'OnlineAuthentication' : 'NoPassword';
}
