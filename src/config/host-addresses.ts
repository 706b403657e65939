import { acquirerAddresses } from './acquirer-kinds.js';
import type { ConfigValues } from './schema.js';

/**
 * Every address a host of money is reached at, by its key path: the configured acquirer kind's
 * (`acquirer.<kind>.*`, its own rules' list) and the card-not-present kind's own endpoint
 * (`cardNotPresent.url` of kind `webservice15`: the store's access key and typed card numbers travel
 * there). The guards read this one list: outside the sandbox each must be https
 * (outside-sandbox.ts), and production refuses a loopback one (environment-guard.ts).
 */
export function hostAddresses(values: Pick<ConfigValues, 'acquirer' | 'cardNotPresent'>): [path: string, url: string][] {
  const cnp = values.cardNotPresent;
  const own: [string, string][] = cnp?.kind === 'webservice15' ? [['cardNotPresent.url', cnp.url]] : [];
  return [...acquirerAddresses(values), ...own];
}
