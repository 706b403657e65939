import type { Config } from '../config/index.js';
import type { MerchantProfile } from '../engine/index.js';
import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';

/**
 * What the QR code says of the merchant. The sandbox's registered merchant in the sandbox;
 * elsewhere the initialization's Merchant table (not wired yet: QR sales are refused).
 */
export function merchantProfile(config: Config): MerchantProfile | undefined {
  if (config.values.environment !== 'sandbox') return undefined;
  const m = SANDBOX_MERCHANT.merchant;
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
