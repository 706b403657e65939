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
