import { acquirerAddresses } from './acquirer-kinds.js';
import { cnpKeys } from './card-not-present-kinds.js';
import type { ConfigValues } from './schema.js';

/**
 * Every address a host of money is reached at, by its key path: the configured acquirer kind's
 * (`acquirer.<kind>.*`) and the card-not-present kind's (`cardNotPresent.url` of `webservice15`: the
 * store's access key and typed card numbers travel there), each from its kind's own `addresses`. The
 * guards read this one list: outside the sandbox each must be https (outside-sandbox.ts), and production
 * refuses a loopback one (environment-guard.ts).
 */
export function hostAddresses(
  values: Pick<ConfigValues, 'acquirer' | 'cardNotPresent'>,
): [path: string, url: string][] {
  const cnp = cnpKeys(values);
  const own = cnp
    ? Object.entries(cnp.rules.addresses(cnp.keys)).flatMap(([k, url]) =>
        url === undefined ? [] : [[`${cnp.path}.${k}`, url] as [string, string]],
      )
    : [];
  return [...acquirerAddresses(values), ...own];
}
