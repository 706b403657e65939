import type { KindSecret } from './acquirer-kind.js';
import { acquirerKeys } from './acquirer-kinds.js';
import { cnpKeys } from './card-not-present-kinds.js';
import type { ConfigValues } from './schema.js';

/** One configured kind's keys and its declared secret files (acquirer-kinds.ts `acquirerKeys`, card-not-present-kinds.ts `cnpKeys`). */
export interface KindKeys {
  readonly kind: string;
  /** Where its keys are (`acquirer.omni`, `cardNotPresent`): the prefix of every problem's path. */
  readonly path: string;
  readonly keys: Record<string, unknown>;
  readonly rules: { readonly secrets: readonly KindSecret[] };
}

/**
 * The configured kind of each port chosen by kind — the acquirer, and the card-not-present sales when
 * configured —: what reads, guards and checks a kind's secrets walks these, so each sees every port's.
 */
export function portKinds(values: ConfigValues): { acquirer: KindKeys; cardNotPresent?: KindKeys } {
  const cnp = cnpKeys(values);
  return { acquirer: acquirerKeys(values), ...(cnp ? { cardNotPresent: cnp } : {}) };
}

/** A kind's secret files as they are in `keys` (resolved or not), each by its key path. */
export function kindSecretFiles(a: KindKeys): { key: string; file: string | undefined }[] {
  return a.rules.secrets.map((s) => {
    const file = a.keys[s.key];
    return { key: `${a.path}.${s.key}`, file: typeof file === 'string' ? file : undefined };
  });
}
