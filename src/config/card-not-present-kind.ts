import type { z } from 'zod';
import type { KeyFields, KindSecret } from './acquirer-kind.js';

/**
 * What the configuration needs to know of one card-not-present kind (`cardNotPresent`, the file
 * card-not-present-<kind>.ts, which imports zod's types only: the secrets' reading loads no zod), as
 * an acquirer kind declares itself (acquirer-kind.ts). Key names are relative to `cardNotPresent`.
 */
export interface CnpConfigKind<S extends z.ZodObject = z.ZodObject> {
  /**
   * The kind's keys besides `kind`, a strict object (an unknown key refused by name), built with the zod
   * card-not-present-schema.ts passes.
   */
  keys(fields: KeyFields): S;
  /**
   * Its secret files, each a key of its own (`as const`: `Config.secrets.cardNotPresent.<kind>` is
   * typed from this list); a kind without one has no `Config.secrets.cardNotPresent`.
   */
  readonly secrets: readonly (KindSecret & { readonly key: keyof z.output<S> & string })[];
  /**
   * Every address it sends to, by its key (`url`): the guards read them through host-addresses.ts (https
   * outside the sandbox, never loopback in production), as the acquirer kind's `addresses`.
   */
  addresses(keys: z.output<S>): Readonly<Record<string, string | undefined>>;
}
