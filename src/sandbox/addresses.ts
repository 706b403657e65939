import type { SandboxBase } from './routes.js';

/**
 * The client configuration key that names each base of the acquirer (config `acquirer.*`), in
 * the words of the configuration; the sandbox keeps this mapping as plain data so the daemon,
 * the CLI and the tests point each key at the listener that plays that base.
 */
export const CONFIG_KEY_OF_BASE = {
  authorization: 'authUrl',
  requests: 'requestUrl',
  queries: 'queryUrl',
  parameters: 'parametersUrl',
  registration: 'registrationUrl',
  ecommerceRequests: 'ecommerceUrl',
  ecommerceQueries: 'ecommerceQueryUrl',
  wallet: 'walletUrl',
} as const satisfies Record<SandboxBase, string>;

export type AddressKey = (typeof CONFIG_KEY_OF_BASE)[SandboxBase];

/** `authUrl` → `AUTH_URL` (the OMNIPOS_ACQUIRER__… variable's tail). */
function envName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
}

/** Each configuration key with the address of its listener: `{ authUrl, requestUrl, … }`. */
export function sandboxSettings(running: { urls: Readonly<Record<SandboxBase, string>> }): Record<AddressKey, string> {
  return Object.fromEntries(
    (Object.entries(CONFIG_KEY_OF_BASE) as [SandboxBase, AddressKey][]).map(([b, k]) => [k, running.urls[b]]),
  ) as Record<AddressKey, string>;
}

/** The same as `OMNIPOS_ACQUIRER__*_URL` variables, for a CLI or a daemon started in a test. */
export function sandboxEnv(running: { urls: Readonly<Record<SandboxBase, string>> }): Record<string, string> {
  return Object.fromEntries(
    Object.entries(sandboxSettings(running)).map(([k, u]) => [`OMNIPOS_ACQUIRER__${envName(k)}`, u]),
  );
}
