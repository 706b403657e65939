import type { z } from 'zod';
import type { AcquirerConfigKind, KeyFields } from '../../config/acquirer-kind.js';

/**
 * The omni acquirer's own keys (`acquirer.omni`): the terminal API's addresses and OAuth client, the
 * e-commerce API's (Pix and QR code sales), the wallet's, the DUKPT key set and the request timeout.
 * Built by schema.ts with its zod (this file loads no zod: `omnipos api token` reads the rules below).
 */
const omniKeys = ({ z, httpUrl, filePath }: KeyFields) =>
  z.strictObject({
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
export type OmniKeys = z.output<ReturnType<typeof omniKeys>>;

/** Omni's keys and what the configuration's guards and readers need of them. */
export const OMNI_CONFIG = {
  keys: omniKeys,
  addresses: (k) => ({
    authUrl: k.authUrl,
    requestUrl: k.requestUrl,
    queryUrl: k.queryUrl,
    parametersUrl: k.parametersUrl,
    registrationUrl: k.registrationUrl,
    walletUrl: k.walletUrl,
    ecommerceUrl: k.ecommerceUrl,
    ecommerceQueryUrl: k.ecommerceQueryUrl,
  }),
  secrets: [
    { key: 'clientSecretFile', secret: 'clientSecret', sandbox: 'clientSecret' },
    { key: 'merchantKeyFile', secret: 'merchantKey', sandbox: 'merchantKey' },
  ] as const,
  sandboxIdentities: (k) => [
    { key: 'clientId', value: k.clientId, sandbox: 'clientId' },
    { key: 'merchantId', value: k.merchantId, sandbox: 'merchantId' },
  ],
  requiredOutsideSandbox: (k) => [
    { key: 'registrationUrl', value: k.registrationUrl, why: 'the registration host is not the parameters host' },
    {
      key: 'ecommerceQueryUrl',
      value: k.ecommerceQueryUrl,
      why: 'e-commerce queries (sales, card BIN) go to the query host',
    },
  ],
  applySandboxDefaults: (k) => {
    k.registrationUrl ??= k.parametersUrl;
    k.ecommerceQueryUrl ??= k.ecommerceUrl;
  },
  timeoutMs: (k) => k.timeoutMs,
} satisfies AcquirerConfigKind<OmniKeys, ReturnType<typeof omniKeys>>;
