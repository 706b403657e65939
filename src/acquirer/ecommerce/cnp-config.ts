import type { CnpConfigKind } from '../../config/card-not-present-kind.js';

/**
 * `cardNotPresent` of kind `ecommerce`: the JSON e-commerce API (this folder; docs/card-not-present.md), on
 * the e-commerce credentials and addresses of `acquirer` (merchantId, merchantKeyFile, ecommerceUrl,
 * ecommerceQueryUrl) and `terminal.softDescriptor`: no keys, secrets nor addresses of its own.
 */
export const ECOMMERCE_CNP_CONFIG = {
  keys: ({ z }) => z.strictObject({}),
  secrets: [] as const,
  addresses: () => ({}),
} satisfies CnpConfigKind;
