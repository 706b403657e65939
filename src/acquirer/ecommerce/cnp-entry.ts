import { OmniposError } from '../../core/index.js';
import type { CnpKindEntry } from '../../factory/cnp-parts.js';

/**
 * The `ecommerce` card-not-present kind's factory entry (of the factory ring: eslint.layers.js KIND_FILES):
 * the JSON e-commerce API on the e-commerce client the acquirer backend already holds (that of Pix and QR).
 */
export const ECOMMERCE_CNP_ENTRY: CnpKindEntry = (_config, wiring) => {
  const offered = wiring.offers?.ecommerce;
  if (!offered)
    throw new OmniposError(
      'CONFIG_INVALID',
      'cardNotPresent: ecommerce needs the e-commerce credentials (acquirer.omni.merchantId and acquirer.omni.merchantKeyFile)',
      { path: 'cardNotPresent' },
    );
  return offered();
};
