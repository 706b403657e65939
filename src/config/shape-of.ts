import { z } from 'zod';
import { CUSTOM_CHECKS } from './checks.js';
import type { Check, Shape } from './shape.js';

/**
 * The generator of config-shape.generated.ts: a zod schema as plain data (shape.ts), read from zod's
 * own typed classes and definitions. What it does not know it marks `opaque`, so the fast path
 * declines there and zod decides; it never guesses.
 */

function checkOf(check: z.core.$ZodCheck): Check {
  const def = check._zod.def as z.core.$ZodCheckDef & Record<string, unknown>;
  if (check instanceof z.ZodCustom) {
    const fn = def.fn;
    const name = Object.entries(CUSTOM_CHECKS).find(([, f]) => f === fn)?.[0];
    return name ? { kind: 'custom', name } : { kind: 'opaque', check: 'custom' };
  }
  switch (def.check) {
    case 'min_length':
      return { kind: 'min_length', value: def.minimum as number };
    case 'max_length':
      return { kind: 'max_length', value: def.maximum as number };
    case 'string_format':
      return def.format === 'regex' && def.pattern instanceof RegExp && def.when === undefined
        ? { kind: 'regex', source: def.pattern.source, flags: def.pattern.flags }
        : { kind: 'opaque', check: `string_format ${String(def.format)}` };
    case 'number_format':
      return def.format === 'safeint'
        ? { kind: 'safeint' }
        : { kind: 'opaque', check: `number_format ${String(def.format)}` };
    case 'greater_than':
    case 'less_than':
      return typeof def.value === 'number'
        ? { kind: def.check, value: def.value, inclusive: def.inclusive === true }
        : { kind: 'opaque', check: def.check };
    default:
      return { kind: 'opaque', check: def.check };
  }
}

/** String formats whose whole check is their pattern (zod's $ZodCheckStringFormat test, no override). */
const PATTERN_FORMATS = ['uuid', 'guid'];

function checksOf(schema: z.core.$ZodType): Check[] {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const own: Check[] = [];
  // A string format (z.uuid(), z.email()…) is its own check: its pattern, when it has one.
  if (def.type === 'string' && typeof def.format === 'string') {
    own.push(
      PATTERN_FORMATS.includes(def.format) && def.pattern instanceof RegExp
        ? { kind: 'regex', source: def.pattern.source, flags: def.pattern.flags }
        : { kind: 'opaque', check: `string_format ${def.format}` },
    );
  }
  return [...own, ...(def.checks ?? []).map(checkOf)];
}

function isJson(value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(JSON.stringify(value))) === JSON.stringify(value) && value !== undefined;
  } catch {
    return false;
  }
}

/** The zod schema as plain data. */
export function shapeOf(schema: z.core.$ZodType): Shape {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const checked = (def.checks ?? []).length > 0;
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault) {
    const inner = shapeOf(schema.def.innerType);
    const value: unknown = schema.def.defaultValue;
    return isJson(value) && !checked
      ? { type: schema instanceof z.ZodDefault ? 'default' : 'prefault', inner, value }
      : { type: 'wrapper', wrapper: def.type, inner };
  }
  if (schema instanceof z.ZodOptional)
    return checked
      ? { type: 'wrapper', wrapper: def.type, inner: shapeOf(schema.def.innerType) }
      : { type: 'optional', inner: shapeOf(schema.def.innerType) };
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodReadonly || schema instanceof z.ZodCatch)
    return { type: 'wrapper', wrapper: def.type, inner: shapeOf(schema.def.innerType) };
  if (schema instanceof z.ZodObject) {
    const catchall = schema.def.catchall;
    return {
      type: 'object',
      strict: catchall !== undefined && catchall._zod.def.type === 'never' && !checked,
      shape: Object.fromEntries(
        Object.entries(schema.def.shape as Record<string, z.core.$ZodType>).map(([k, v]) => [k, shapeOf(v)]),
      ),
    };
  }
  if (schema instanceof z.ZodDiscriminatedUnion) {
    return {
      type: 'union',
      options: schema.def.options.map(shapeOf),
      discriminator: schema.def.discriminator,
      exact: !schema.def.unionFallback && !checked,
    };
  }
  if (schema instanceof z.ZodUnion) return { type: 'union', options: schema.def.options.map(shapeOf), exact: false };
  if (!checked && schema instanceof z.ZodLiteral && schema.def.values.every(isJson))
    return { type: 'literal', values: schema.def.values };
  if (!checked && schema instanceof z.ZodEnum) return { type: 'enum', values: schema.options };
  if ((schema instanceof z.ZodString || schema instanceof z.ZodStringFormat) && !def.coerce)
    return { type: 'string', checks: checksOf(schema) };
  if (schema instanceof z.ZodNumber && !schema.def.coerce) return { type: 'number', checks: checksOf(schema) };
  if (schema instanceof z.ZodBoolean && !schema.def.coerce && !checked) return { type: 'boolean' };
  return { type: 'opaque', zodType: def.type };
}

/** config-shape.generated.ts's text for `shape` (prettier formats it once written). */
export function renderShapeModule(shape: Shape): string {
  return `// Generated from src/config/schema.ts by src/config/shape-of.ts: do not edit. After changing the schema:
//   npm run generate
// (test/unit/lint/generated.test.ts compares this file with the schema and fails until it is regenerated).
import type { Shape } from './shape.js';

export const CONFIG_SHAPE: Shape = ${JSON.stringify(shape)};
`;
}
