import type { z } from 'zod';
import type { CnpConfigKind } from './card-not-present-kind.js';
import { WEBSERVICE15_CNP } from './card-not-present-webservice15.js';
import type { DeclaredSecrets } from './kind-secrets.js';

/**
 * The card-not-present kinds this build's configuration knows, each with its keys and secrets
 * (card-not-present-<kind>.ts); card-not-present-schema.ts makes `cardNotPresent` the union of
 * `{ kind: '<kind>', …its keys }`, and each kind's backend is its entry in src/main/card-not-present.ts
 * `KINDS` (keyed by these: a kind without its entry does not compile).
 */
export const CNP_CONFIG = {
  // The JSON e-commerce API, on the e-commerce credentials and addresses of `acquirer` (merchantId,
  // merchantKeyFile, ecommerceUrl, ecommerceQueryUrl) and terminal.softDescriptor: no keys nor secrets of its own.
  ecommerce: { keys: ({ z }) => z.strictObject({}), secrets: [] as const, addresses: () => ({}) },
  webservice15: WEBSERVICE15_CNP,
} as const satisfies Readonly<Record<string, CnpConfigKind>>;

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
