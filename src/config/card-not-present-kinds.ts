import type { z } from 'zod';
import type { CnpConfigKind } from './card-not-present-kind.js';
import { CNP_CONFIG } from './cnp-registry.js';
import type { DeclaredSecrets } from './kind-secrets.js';

/**
 * The card-not-present kinds this build's configuration knows: every folder src/acquirer/<kind>/ with its
 * keys and rules (cnp-config.ts) and its factory entry (cnp-entry.ts), listed by `npm run generate` in
 * cnp-registry.ts. card-not-present-schema.ts makes `cardNotPresent` the union of `{ kind: '<kind>', …its
 * keys }`; each kind's backend is its entry in the factory (src/factory/cnp-registry.ts, keyed by these).
 */
export { CNP_CONFIG };

export type CnpKind = keyof typeof CNP_CONFIG;

/** Every kind, in the order of the schema's union (the day report and the API list them). */
export const CARD_NOT_PRESENT_KINDS = Object.keys(CNP_CONFIG) as readonly CnpKind[];

type Registry = typeof CNP_CONFIG;
type KeysOf<K extends CnpKind> = ReturnType<Registry[K]['keys']>;

/** The configuration's `cardNotPresent` as read: one kind and its keys. */
export type CnpValues = { [K in CnpKind]: { kind: K } & z.output<KeysOf<K>> }[CnpKind];

/** The configuration's `cardNotPresent` as written. */
export type CnpInput = { [K in CnpKind]: { kind: K } & z.input<KeysOf<K>> }[CnpKind];

type SecretOf<K extends CnpKind> = Registry[K]['secrets'][number];
/** The kinds that declare a secret. */
type WithSecrets = { [K in CnpKind]: [SecretOf<K>] extends [never] ? never : K }[CnpKind];

/** One kind's secrets by name, as its `secrets` list declares them (optional where the file's key is). */
export type CnpKindSecrets<K extends CnpKind> = DeclaredSecrets<SecretOf<K>, z.output<KeysOf<K>>>;

/**
 * `Config.secrets.cardNotPresent`: the configured kind's secrets under its name
 * (`{ kind: 'webservice15', webservice15: { key } }`), absent when the kind declares none.
 */
export type CnpSecrets = {
  [K in WithSecrets]: { readonly kind: K } & { readonly [P in K]: CnpKindSecrets<K> };
}[WithSecrets];

/** The configured card-not-present kind's keys with its rules (as acquirer-kinds.ts `acquirerKeys`), or none. */
export function cnpKeys(values: {
  readonly cardNotPresent?: { readonly kind: CnpKind } | undefined;
}): { kind: CnpKind; path: string; keys: Record<string, unknown>; rules: CnpConfigKind } | undefined {
  const block = values.cardNotPresent;
  if (block === undefined) return undefined;
  return {
    kind: block.kind,
    path: 'cardNotPresent',
    keys: block,
    rules: CNP_CONFIG[block.kind],
  };
}
