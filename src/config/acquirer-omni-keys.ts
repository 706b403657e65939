import { z } from 'zod';
import { filePath, httpUrl } from './fields.js';

/**
 * The omni acquirer's own keys (`acquirer.omni`): the terminal API's addresses and OAuth client, the
 * e-commerce API's (Pix and QR code sales), the wallet's, the DUKPT key set and the request timeout.
 */
export const OmniKeys = z.strictObject({
  /** OAuth token endpoint base (POST {authUrl}/oauth2/token). */
  authUrl: httpUrl,
  /** Sales, confirmations, undos, voids. */
  requestUrl: httpUrl,
  /** Queries by PaymentId and MerchantOrderId. */
  queryUrl: httpUrl,
  /** Initialization (the parameters download host). */
  parametersUrl: httpUrl,
  /**
   * Merchant and terminal registration, a host of its own at the acquirer (`omnichannelcadastro…`).
   * Required outside the sandbox; in the sandbox it defaults to parametersUrl.
   */
  registrationUrl: httpUrl.optional(),
  /** The wallet-facing QR API. */
  walletUrl: httpUrl,
  /** The JSON e-commerce API's request host (Pix and QR sales, voids); may point at a merchant-side proxy. */
  ecommerceUrl: httpUrl,
  /**
   * The JSON e-commerce API's query host (`apiquery…`): `GET /1/sales/{id}` and `GET /1/cardBin/{bin}`.
   * Required outside the sandbox; in the sandbox it defaults to ecommerceUrl.
   */
  ecommerceQueryUrl: httpUrl.optional(),
  clientId: z.string().min(1, 'must not be empty'),
  /** File holding the OAuth client secret (read at start, never logged). */
  clientSecretFile: filePath,
  /** The e-commerce MerchantId (Pix and QR code sales), a UUID. */
  merchantId: z.uuid('must be a UUID').optional(),
  /** File holding the e-commerce MerchantKey (read at start, never logged); with merchantId it enables Pix. */
  merchantKeyFile: filePath.optional(),
  /** 5-digit key set identifier registered at the acquirer for the DUKPT BDK. */
  ksi: z.string().regex(/^\d{5}$/, 'must be 5 digits'),
  /** Request timeout in milliseconds. */
  timeoutMs: z.number().int().min(100).max(120_000).default(30_000),
});
export type OmniKeys = z.output<typeof OmniKeys>;
