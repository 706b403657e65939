import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONFIG_SHAPE } from '../../../src/config/config-shape.generated.js';
import { fastParse } from '../../../src/config/fast-parse.js';
import { shapeOf } from '../../../src/config/shape-of.js';
import { shapeHasPath, shapePathIsText, type Shape } from '../../../src/config/shape.js';

/**
 * src/config/config-shape.generated.ts is the zod schema as data, checked in so that `omnipos api
 * token` need not load zod. test/unit/lint/generated.test.ts holds it to what the generator makes of the
 * schema today; `npm run generate` rewrites it after a change to src/config/schema.ts.
 */

function parts(s: Shape): Shape[] {
  switch (s.type) {
    case 'default':
    case 'prefault':
    case 'optional':
    case 'wrapper':
      return [s, ...parts(s.inner)];
    case 'object':
      return [s, ...Object.values(s.shape).flatMap(parts)];
    case 'union':
      return [s, ...s.options.flatMap(parts)];
    default:
      return [s];
  }
}

describe('the configuration shape', () => {
  it('has no part the fast path cannot decide (a new zod feature in the schema shows here first)', () => {
    const undecided = parts(CONFIG_SHAPE).filter(
      (s) =>
        s.type === 'opaque' ||
        s.type === 'wrapper' ||
        (s.type === 'object' && !s.strict) ||
        (s.type === 'union' && !s.exact) ||
        ((s.type === 'string' || s.type === 'number') && s.checks.some((c) => c.kind === 'opaque')),
    );
    expect(undecided).toEqual([]);
  });

  it('marks what it does not know opaque, and the fast path declines there (zod decides)', () => {
    const cases: [z.ZodType, unknown][] = [
      [z.email(), 'a@b.example'],
      [z.string().trim(), ' a '],
      [z.string().refine((s) => s.length > 0), 'a'],
      [z.string().transform((s) => s.length), 'a'],
      [z.number().multipleOf(5), 10],
      [z.object({ a: z.string() }), { a: 'x' }],
      [z.looseObject({ a: z.string() }), { a: 'x' }],
      [z.strictObject({ a: z.string() }).refine(() => true), { a: 'x' }],
      [z.union([z.string(), z.number()]), 'x'],
      [z.string().nullable(), 'x'],
      [z.string().catch('y'), 'x'],
      [z.date(), new Date(0)],
      [z.coerce.number(), 5],
      [z.strictObject({ a: z.string().default('x').optional() }), {}],
    ];
    for (const [schema, value] of cases) {
      expect(schema.safeParse(value).success).toBe(true);
      expect(fastParse(shapeOf(schema), value), JSON.stringify(shapeOf(schema))).toBeUndefined();
    }
  });

  it('names the keys the OMNIPOS_* overrides may set, and which hold text', () => {
    expect(shapeHasPath(CONFIG_SHAPE, ['acquirer', 'omni', 'queryUrl'])).toBe(true);
    expect(shapeHasPath(CONFIG_SHAPE, ['pinpad', 'device', 'baudRate'])).toBe(true);
    expect(shapeHasPath(CONFIG_SHAPE, ['acquirer', 'omni', 'nope'])).toBe(false);
    // Object's own properties are not keys of the configuration.
    expect(shapeHasPath(CONFIG_SHAPE, ['constructor'])).toBe(false);
    expect(shapeHasPath(CONFIG_SHAPE, ['terminal', 'toString'])).toBe(false);
    expect(shapePathIsText(CONFIG_SHAPE, ['terminal', 'terminalId'])).toBe(true);
    expect(shapePathIsText(CONFIG_SHAPE, ['terminal', 'subordinatedMerchantId'])).toBe(true);
    expect(shapePathIsText(CONFIG_SHAPE, ['terminal', 'ordinal'])).toBe(false);
    expect(shapePathIsText(CONFIG_SHAPE, ['environment'])).toBe(true);
    const device = (kind: string): unknown => ({ pinpad: { device: { kind } } });
    expect(shapePathIsText(CONFIG_SHAPE, ['pinpad', 'device', 'port'], device('tcp'))).toBe(false);
    expect(shapePathIsText(CONFIG_SHAPE, ['pinpad', 'device', 'port'], device('bibcomp'))).toBe(true);
    expect(shapePathIsText(CONFIG_SHAPE, ['pinpad', 'device', 'port'])).toBe(false);
  });
});
