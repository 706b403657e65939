import { z } from 'zod';
import { isHttpUrl } from './checks.js';

/**
 * `cardNotPresent` of kind `webservice15`: the acquirer's XML webservice 1.5 (src/acquirer/webservice15/;
 * docs/card-not-present.md), with keys of its own — the service's credential is the store's
 * affiliation number and access key (its `dados-ec`), not the JSON API's MerchantId and MerchantKey.
 */
export const webservice15CardNotPresent = z.strictObject({
  kind: z.literal('webservice15'),
  /**
   * The endpoint: test `https://qasecommerce.cielo.com.br/servicos/ecommwsec.do`, production
   * `https://ecommerce.cielo.com.br/servicos/ecommwsec.do` (the manual, ws15:1500, 1558).
   */
  url: z.string({ error: 'must be an https or http URL' }).refine(isHttpUrl, 'must be an https or http URL'),
  /** `dados-ec.numero`: the store's affiliation number, 1 to 20 digits. */
  affiliation: z.string().regex(/^[0-9]{1,20}$/, 'must be 1 to 20 digits'),
  /** File holding `dados-ec.chave`, the store's access key (read at start, never logged). */
  keyFile: z.string({ error: 'must be a file path' }).min(1, 'must be a file path'),
  /** Per request; the manual recommends 30 s, above the service's own 25 s. */
  timeoutMs: z.number().int().min(100).max(120_000).default(30_000),
});
