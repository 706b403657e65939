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

/** Whether the key at `path` holds text (a string, an enum of strings): its environment value is taken as written. */
export function schemaPathIsText(schema: z.ZodType, path: readonly string[]): boolean {
  const def = defOf(schema);
  if (def.innerType && WRAPPERS.includes(def.type)) return schemaPathIsText(def.innerType, path);
  if (path.length === 0) return def.type === 'string' || def.type === 'enum' || (def.type === 'union' && !!def.options?.every((o) => schemaPathIsText(o, path)));
  if (def.type === 'object' && def.shape) {
    const child = def.shape[path[0] as string];
    return child !== undefined && schemaPathIsText(child, path.slice(1));
  }
  if (def.type === 'union' && def.options) return def.options.some((o) => schemaHasPath(o, path) && schemaPathIsText(o, path));
  return false;
}
