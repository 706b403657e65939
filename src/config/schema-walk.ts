import { z } from 'zod';

/**
 * A schema node as the walk below tells them apart, each read from zod's own typed classes: a wrapper
 * (default, prefault, optional, nullable, readonly, catch) around its inner schema, an object with its
 * shape, a union with its options (and its discriminator when it has one), a literal with its values,
 * or anything else (`type`: zod's own name for it, e.g. `string`, `enum`, `number`).
 */
type Node =
  | { kind: 'wrapper'; inner: z.core.$ZodType }
  | { kind: 'object'; shape: Readonly<Record<string, z.core.$ZodType>> }
  | { kind: 'union'; options: readonly z.core.$ZodType[]; discriminator?: string }
  | { kind: 'literal'; values: readonly unknown[] }
  | { kind: 'leaf'; type: string };

function nodeOf(schema: z.core.$ZodType): Node {
  if (
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodCatch
  )
    return { kind: 'wrapper', inner: schema.def.innerType };
  if (schema instanceof z.ZodObject) return { kind: 'object', shape: schema.def.shape };
  if (schema instanceof z.ZodDiscriminatedUnion)
    return { kind: 'union', options: schema.def.options, discriminator: schema.def.discriminator };
  if (schema instanceof z.ZodUnion) return { kind: 'union', options: schema.def.options };
  if (schema instanceof z.ZodLiteral) return { kind: 'literal', values: schema.def.values };
  return { kind: 'leaf', type: schema._zod.def.type };
}

/** Whether `path` names a key the schema declares (through defaults, optionals and unions). */
export function schemaHasPath(schema: z.core.$ZodType, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  const node = nodeOf(schema);
  if (node.kind === 'wrapper') return schemaHasPath(node.inner, path);
  if (node.kind === 'object') {
    const child = node.shape[path[0] as string];
    return child !== undefined && schemaHasPath(child, path.slice(1));
  }
  if (node.kind === 'union') return node.options.some((o) => schemaHasPath(o, path));
  return false;
}

function child(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The options of a union that `value` can be: the one its discriminator names when it names one, else all. */
function candidates(union: Extract<Node, { kind: 'union' }>, value: unknown): readonly z.core.$ZodType[] {
  const { options, discriminator: disc } = union;
  const named = disc === undefined ? undefined : child(value, disc);
  if (disc === undefined || named === undefined) return options;
  const matching = options.filter((o) => {
    const node = nodeOf(o);
    const literal = node.kind === 'object' ? node.shape[disc] : undefined;
    const values = literal ? nodeOf(literal) : undefined;
    return values?.kind === 'literal' && values.values.includes(named);
  });
  return matching.length > 0 ? matching : options;
}

/**
 * Whether the key at `path` holds text (a string, an enum of strings): its environment value is taken as written.
 * `value` is the raw configuration at the schema's level: in a discriminated union it picks the option
 * (`pinpad.device.port` is a number for `tcp`, text for `bibcomp`); with no discriminator given, the key is
 * text only when every option that has it holds text there.
 */
export function schemaPathIsText(schema: z.core.$ZodType, path: readonly string[], value?: unknown): boolean {
  const node = nodeOf(schema);
  if (node.kind === 'wrapper') return schemaPathIsText(node.inner, path, value);
  if (node.kind === 'union') {
    const having = candidates(node, value).filter((o) => schemaHasPath(o, path));
    return having.length > 0 && having.every((o) => schemaPathIsText(o, path, value));
  }
  if (path.length === 0) return node.kind === 'leaf' && (node.type === 'string' || node.type === 'enum');
  if (node.kind === 'object') {
    const next = node.shape[path[0] as string];
    return next !== undefined && schemaPathIsText(next, path.slice(1), child(value, path[0] as string));
  }
  return false;
}
