import type { KindSecret } from './acquirer-kind.js';
import type { Secret } from './secret.js';

/** Whether a declared secret may be absent: its file's key is optional (or no key at all) in the kind's keys `O`. */
type MayLack<O, E extends KindSecret> = E['key'] extends keyof O
  ? undefined extends O[E['key']]
    ? true
    : false
  : true;

/**
 * A kind's secrets by name, as its `secrets` list declares them (`L`, the list's members) over its keys
 * as read (`O`): each present where its file's key is required, optional where that key is. For any
 * port chosen by kind: the acquirer kinds' (`KindSecrets`, acquirer-kinds.ts) and the card-not-present kinds'.
 */
export type DeclaredSecrets<L extends KindSecret, O> = {
  readonly [E in L as MayLack<O, E> extends true ? never : E['secret']]: Secret;
} & {
  readonly [E in L as MayLack<O, E> extends true ? E['secret'] : never]?: Secret;
};
