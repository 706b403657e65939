/**
 * The configuration schema as plain data, zod-free: what `omnipos api token` needs to apply the
 * OMNIPOS_* overrides and to validate a configuration (fast-parse.ts) without loading zod. Generated
 * from the zod schema (shape-of.ts → config-shape.generated.ts; a test regenerates it and compares).
 * Anything the generator does not know becomes `opaque` (or a check `opaque`): the fast path then
 * declines and zod decides.
 */

export type Check =
  | { kind: 'min_length' | 'max_length'; value: number }
  | { kind: 'regex'; source: string; flags: string }
  | { kind: 'safeint' }
  | { kind: 'greater_than' | 'less_than'; value: number; inclusive: boolean }
  | { kind: 'custom'; name: string }
  | { kind: 'opaque'; check: string };

export type Shape =
  | { type: 'default' | 'prefault'; inner: Shape; value: unknown }
  | { type: 'optional'; inner: Shape }
  /** nullable, readonly, catch: walked through, never decided by the fast path. */
  | { type: 'wrapper'; wrapper: string; inner: Shape }
  | { type: 'object'; strict: boolean; shape: Readonly<Record<string, Shape>> }
  /** `exact`: a discriminated union the fast path decides (no fallback to trying every option, no checks). */
  | { type: 'union'; options: readonly Shape[]; discriminator?: string; exact: boolean }
  | { type: 'literal'; values: readonly unknown[] }
  | { type: 'enum'; values: readonly unknown[] }
  | { type: 'string' | 'number'; checks: readonly Check[] }
  | { type: 'boolean' }
  /** Any other zod type (its zod name): the fast path declines. */
  | { type: 'opaque'; zodType: string };

function innerOf(s: Shape): Shape | undefined {
  return s.type === 'default' || s.type === 'prefault' || s.type === 'optional' || s.type === 'wrapper'
    ? s.inner
    : undefined;
}

/** Whether `path` names a key the schema declares (through defaults, optionals and unions). */
export function shapeHasPath(s: Shape, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  const inner = innerOf(s);
  if (inner) return shapeHasPath(inner, path);
  if (s.type === 'object') {
    const child = Object.hasOwn(s.shape, path[0] as string) ? s.shape[path[0] as string] : undefined;
    return child !== undefined && shapeHasPath(child, path.slice(1));
  }
  if (s.type === 'union') return s.options.some((o) => shapeHasPath(o, path));
  return false;
}

function child(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The options of a union that `value` can be: the one its discriminator names when it names one, else all. */
function candidates(union: Extract<Shape, { type: 'union' }>, value: unknown): readonly Shape[] {
  const { options, discriminator: disc } = union;
  const named = disc === undefined ? undefined : child(value, disc);
  if (disc === undefined || named === undefined) return options;
  const matching = options.filter((o) => {
    const literal = o.type === 'object' && Object.hasOwn(o.shape, disc) ? o.shape[disc] : undefined;
    return literal?.type === 'literal' && literal.values.includes(named);
  });
  return matching.length > 0 ? matching : options;
}

function isTextLeaf(s: Shape): boolean {
  return (
    s.type === 'string' ||
    s.type === 'enum' ||
    (s.type === 'opaque' && (s.zodType === 'string' || s.zodType === 'enum'))
  );
}

/**
 * Whether the key at `path` holds text (a string, an enum of strings): its environment value is taken as written.
 * `value` is the raw configuration at the schema's level: in a discriminated union it picks the option
 * (`pinpad.device.port` is a number for `tcp`, text for `bibcomp`); with no discriminator given, the key is
 * text only when every option that has it holds text there.
 */
export function shapePathIsText(s: Shape, path: readonly string[], value?: unknown): boolean {
  const inner = innerOf(s);
  if (inner) return shapePathIsText(inner, path, value);
  if (s.type === 'union') {
    const having = candidates(s, value).filter((o) => shapeHasPath(o, path));
    return having.length > 0 && having.every((o) => shapePathIsText(o, path, value));
  }
  if (path.length === 0) return isTextLeaf(s);
  if (s.type === 'object') {
    const next = Object.hasOwn(s.shape, path[0] as string) ? s.shape[path[0] as string] : undefined;
    return next !== undefined && shapePathIsText(next, path.slice(1), child(value, path[0] as string));
  }
  return false;
}
