import type { z } from 'zod';
import type { AcquirerConfigKind } from './acquirer-kind.js';
import { ACQUIRER_CONFIG } from './acquirer-registry.js';
import type { DeclaredSecrets } from './kind-secrets.js';

/**
 * The acquirer kinds this build's configuration knows: every folder src/acquirer/<kind>/ with its keys and
 * rules (config.ts) and its factory entry (entry.ts), listed by `npm run generate` in acquirer-registry.ts.
 * schema.ts makes `acquirer` the union of `{ kind: '<kind>', <kind>: its keys }`; each kind's backend is
 * its entry in the factory (src/factory/acquirer-registry.ts, keyed by these).
 */
export { ACQUIRER_CONFIG };

export type AcquirerKind = keyof typeof ACQUIRER_CONFIG;

type Registry = typeof ACQUIRER_CONFIG;
type KeysOf<K extends AcquirerKind> = ReturnType<Registry[K]['keys']>;

/** The configuration's `acquirer` as read: one kind, its keys under its name. */
export type AcquirerValues = {
  [K in AcquirerKind]: { kind: K } & { [P in K]: z.output<KeysOf<K>> };
}[AcquirerKind];

/** The configuration's `acquirer` as written. */
export type AcquirerInput = {
  [K in AcquirerKind]: { kind: K } & { [P in K]: z.input<KeysOf<K>> };
}[AcquirerKind];

type SecretOf<K extends AcquirerKind> = Registry[K]['secrets'][number];
/** One kind's secrets by name, as its `secrets` list declares them (src/acquirer/<kind>/config.ts): kind-secrets.ts's rule. */
export type KindSecrets<K extends AcquirerKind> = DeclaredSecrets<SecretOf<K>, z.output<KeysOf<K>>>;

/** `Config.secrets.acquirer`: the configured kind's secrets under its name, as `acquirer` holds its keys. */
export type AcquirerSecrets = {
  [K in AcquirerKind]: { readonly kind: K } & { readonly [P in K]: KindSecrets<K> };
}[AcquirerKind];

/** Every kind, for the schema's message on an unknown one (the factory's keys are these). */
export const ACQUIRER_KINDS = Object.keys(ACQUIRER_CONFIG) as readonly AcquirerKind[];

/** What the readers below take: the configuration's values, or any with its `acquirer`. */
type KindOf = { readonly acquirer: { readonly kind: AcquirerKind } };

/** The configured kind's keys with its rules, every key path under `acquirer.<kind>`. */
export interface AcquirerKeys {
  readonly kind: AcquirerKind;
  /** `acquirer.<kind>`: the prefix of every problem's path. */
  readonly path: string;
  readonly keys: Record<string, unknown>;
  readonly rules: AcquirerConfigKind<Record<string, unknown>>;
}

/** The configured acquirer kind's own keys and rules (the guards, the secrets' reading, the timeout). */
export function acquirerKeys(values: KindOf): AcquirerKeys {
  const block: Readonly<Record<string, unknown>> = values.acquirer;
  const kind = values.acquirer.kind;
  const keys = block[kind];
  if (keys === null || typeof keys !== 'object') throw new Error(`acquirer.${kind}: the kind's keys are missing`);
  return { kind, path: `acquirer.${kind}`, keys: keys as Record<string, unknown>, rules: ACQUIRER_CONFIG[kind] };
}

/** Every address the configured acquirer sends to, by its key path (`acquirer.omni.authUrl`). */
export function acquirerAddresses(values: KindOf): [path: string, url: string][] {
  const a = acquirerKeys(values);
  return Object.entries(a.rules.addresses(a.keys)).flatMap(([k, url]) =>
    url === undefined ? [] : [[`${a.path}.${k}`, url] as [string, string]],
  );
}

/** How long one request to the configured acquirer may take, ms. */
export function acquirerTimeoutMs(values: KindOf): number {
  const a = acquirerKeys(values);
  return a.rules.timeoutMs(a.keys);
}

/**
 * Before the acquirer's kinds (session 9), `acquirer` held omni's keys flat, beside `kind`. Such a
 * file is read as it was: its keys move under `acquirer.omni` (in the raw file, before validation),
 * and so do `OMNIPOS_ACQUIRER__<KEY>` overrides of them (`legacyAcquirerPath`).
 */
export function migrateLegacyAcquirer(raw: Record<string, unknown>): boolean {
  const a = raw.acquirer;
  if (a === null || typeof a !== 'object' || Array.isArray(a)) return false;
  const block = a as Record<string, unknown>;
  // The default kind, as before the kinds.
  block.kind ??= 'omni';
  if (block.kind !== 'omni' || 'omni' in block) return false;
  const flat = Object.keys(block).filter((k) => k !== 'kind');
  if (flat.length === 0) return false;
  const omni: Record<string, unknown> = {};
  for (const k of flat) {
    omni[k] = block[k];
    delete block[k];
  }
  block.omni = omni;
  return true;
}

/**
 * An override's key path as the configuration now spells it: `acquirer.<key>` for a key of the
 * configured kind (the spelling before the kinds) becomes `acquirer.<kind>.<key>`.
 */
export function legacyAcquirerPath(path: string[], raw: Record<string, unknown>): string[] {
  if (path[0] !== 'acquirer' || path.length !== 2 || path[1] === 'kind' || path[1]! in ACQUIRER_CONFIG) return path;
  const a = raw.acquirer as Record<string, unknown> | undefined;
  const kind = typeof a?.kind === 'string' ? a.kind : 'omni';
  return ['acquirer', kind, path[1]!];
}
