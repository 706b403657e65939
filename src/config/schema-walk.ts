import type { z } from 'zod';

interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { def: Def }).def;
}

/** Whether `path` names a key the schema declares (through defaults, optionals and unions). */
export function schemaHasPath(schema: z.ZodType, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  const def = defOf(schema);
  if (def.innerType && ['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch'].includes(def.type)) {
    return schemaHasPath(def.innerType, path);
  }
  if (def.type === 'object' && def.shape) {
    const child = def.shape[path[0] as string];
    return child !== undefined && schemaHasPath(child, path.slice(1));
  }
  if (def.type === 'union' && def.options) return def.options.some((o) => schemaHasPath(o, path));
  return false;
}

const WRAPPERS = ['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch'];

function child(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The options of a union that `value` can be: the one its discriminator names when it names one, else all. */
function candidates(def: Def & { discriminator?: string }, value: unknown): z.ZodType[] {
  const options = def.options ?? [];
  const disc = def.discriminator;
  const named = disc === undefined ? undefined : child(value, disc);
  if (disc === undefined || named === undefined) return options;
  const matching = options.filter((o) => {
    const literal = defOf(o).shape?.[disc];
    const values = literal ? (defOf(literal) as Def & { values?: unknown[] }).values : undefined;
    return values?.includes(named) ?? false;
  });
  return matching.length > 0 ? matching : options;
}

/**
 * Whether the key at `path` holds text (a string, an enum of strings): its environment value is taken as written.
 * `value` is the raw configuration at the schema's level: in a discriminated union it picks the option
 * (`pinpad.device.port` is a number for `tcp`, text for `bibcomp`); with no discriminator given, the key is
 * text only when every option that has it holds text there.
 */
export function schemaPathIsText(schema: z.ZodType, path: readonly string[], value?: unknown): boolean {
  const def = defOf(schema);
  if (def.innerType && WRAPPERS.includes(def.type)) return schemaPathIsText(def.innerType, path, value);
  if (def.type === 'union' && def.options) {
    const having = candidates(def, value).filter((o) => schemaHasPath(o, path));
    return having.length > 0 && having.every((o) => schemaPathIsText(o, path, value));
  }
  if (path.length === 0) return def.type === 'string' || def.type === 'enum';
  if (def.type === 'object' && def.shape) {
    const next = def.shape[path[0] as string];
    return next !== undefined && schemaPathIsText(next, path.slice(1), child(value, path[0] as string));
  }
  return false;
}
