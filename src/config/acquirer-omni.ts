import type { AcquirerConfigKind } from './acquirer-kind.js';
import type { OmniKeys } from './acquirer-omni-keys.js';

/** What the configuration's guards and readers need of omni's keys. */
export const OMNI_CONFIG: AcquirerConfigKind<OmniKeys> = {
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
  ],
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
};
