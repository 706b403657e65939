/**
 * The states a restart walks: every state of a machine's list but its final ones. Derived from the
 * two lists a machine already has, never written beside them, so a new state is either final or
 * walked at the next start, never neither.
 */
export function unfinishedStates<N extends string>(all: readonly N[], final: ReadonlySet<N>): readonly N[] {
  return all.filter((s) => !final.has(s));
}
