import { SANDBOX_MERCHANT } from '../sandbox-merchant.js';
import second from './second-merchant.json' with { type: 'json' };

/** One built-in merchant of the sandbox's OAuth client and its first terminal. */
export type BuiltInMerchant = typeof SANDBOX_MERCHANT;

/**
 * The sandbox host's built-in merchants, all under its one OAuth client: the one the default
 * configuration uses (tables/sandbox-merchant.json) and a second with its own terminal
 * (second-merchant.json), whose first terminal has ordinal 1 as well.
 */
export const BUILT_IN_MERCHANTS: readonly BuiltInMerchant[] = Object.freeze([
  SANDBOX_MERCHANT,
  Object.freeze({ merchant: second.merchant, terminal: second.terminal }),
]);

export function builtInMerchant(subordinatedMerchantId: string): BuiltInMerchant | undefined {
  return BUILT_IN_MERCHANTS.find((m) => m.merchant.subordinatedMerchantId === subordinatedMerchantId.toLowerCase());
}
