import type { KeyFields } from '../../config/acquirer-kind.js';
import type { CnpConfigKind } from '../../config/card-not-present-kind.js';

/**
 * `cardNotPresent` of kind `webservice15`: the acquirer's XML webservice 1.5 (this folder;
 * docs/card-not-present.md), with keys of its own — the service's credential is the store's
 * affiliation number and access key (its `dados-ec`), not the JSON API's MerchantId and MerchantKey.
 * Built with the zod card-not-present-schema.ts passes (this file loads no zod: the secrets' reading
 * needs the rules below).
 */
const webservice15Keys = ({ z, httpUrl, filePath }: KeyFields) =>
  z.strictObject({
    /**
     * The endpoint: test `https://qasecommerce.cielo.com.br/servicos/ecommwsec.do`, production
     * `https://ecommerce.cielo.com.br/servicos/ecommwsec.do` (the manual, ws15:1500, 1558).
     */
    url: httpUrl,
    /** `dados-ec.numero`: the store's affiliation number, 1 to 20 digits. */
    affiliation: z.string().regex(/^[0-9]{1,20}$/, 'must be 1 to 20 digits'),
    /** File holding `dados-ec.chave`, the store's access key (read at start, never logged). */
    keyFile: filePath,
    /** Per request; the manual recommends 30 s, above the service's own 25 s. */
    timeoutMs: z.number().int().min(100).max(120_000).default(30_000),
  });

/** The webservice 1.5's keys and its secret: the store's access key, `Config.secrets.cardNotPresent.webservice15.key`. */
export const WEBSERVICE15_CNP_CONFIG = {
  keys: webservice15Keys,
  // The manual's test store's key (ws15:1528) is published: production refuses it.
  secrets: [{ key: 'keyFile', secret: 'key', sandbox: 'webservice15Key' }] as const,
  addresses: (k) => ({ url: k.url }),
} satisfies CnpConfigKind<ReturnType<typeof webservice15Keys>>;
