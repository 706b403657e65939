import type { Config } from '../config/index.js';
import type { MerchantProfile } from '../engine/index.js';
import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';
import { builtInMerchant } from '../../tables/sandbox/merchants.js';

/**
 * What the QR code says of the merchant. In the sandbox, the built-in merchant the terminal is
 * configured under (`terminal.subordinatedMerchantId`: its own number in 26.01, name and city), the
 * default merchant for any other; elsewhere the initialization's Merchant table (not wired yet: QR
 * sales are refused).
 */
export function merchantProfile(config: Config): MerchantProfile | undefined {
  if (config.values.environment !== 'sandbox') return undefined;
  const m = (builtInMerchant(config.values.terminal.subordinatedMerchantId) ?? SANDBOX_MERCHANT).merchant;
  return {
    merchantNumber: m.merchantNumber,
    terminalId: config.values.terminal.terminalId,
    nationalId: m.nationalId,
    mcc: m.mcc,
    name: m.name,
    city: m.city,
    postalCode: m.postalCode,
    deviceType: config.values.terminal.mode === 'attended' ? 'P' : 'T',
  };
}
