import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_PATH } from '../../../src/config/index.js';
import { CONFIG_SHAPE } from '../../../src/config/config-shape.generated.js';
import { fastParse } from '../../../src/config/fast-parse.js';
import { ConfigSchema } from '../../../src/config/schema.js';
import type { Check, Shape } from '../../../src/config/shape.js';

/**
 * The fast path never accepts what zod refuses, and what it accepts it returns exactly as zod does:
 * for any input, `fastParse` is undefined (zod decides) or zod's output, same values, same key order.
 * The inputs are generated from the schema's shape — valid values, values near each check's edges,
 * junk in any place, keys dropped and unknown keys added — so most are valid or one step from it.
 */

const RUNS = Number(process.env.FC_RUNS ?? 1000);

function zodParse(x: unknown): { success: true; data: unknown } | { success: false } {
  const r = ConfigSchema.safeParse(structuredClone(x), { jitless: true });
  return r.success ? { success: true, data: r.data } : { success: false };
}

/**
 * The property: undefined, or zod's output (deep-equal and byte-equal as JSON). And the converse for this
 * schema, whose shape has no `opaque` part (shape-of.test.ts): whatever zod accepts, the fast path
 * decides, so a valid configuration never pays for zod.
 */
function agrees(x: unknown): { fast: boolean } {
  const fast = fastParse(CONFIG_SHAPE, structuredClone(x));
  const zod = zodParse(x);
  if (fast === undefined) {
    expect(zod.success, `fast path declined what zod accepts: ${JSON.stringify(x)}`).toBe(false);
    return { fast: false };
  }
  expect(zod.success, `fast path accepted what zod refuses: ${JSON.stringify(x)}`).toBe(true);
  if (zod.success) {
    expect(fast).toStrictEqual(zod.data);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
  }
  return { fast: true };
}

const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, 1, -1, 1.5, 2 ** 53, -(2 ** 53), Infinity, NaN, '', ' ', 'x', [], {}),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

/** Mostly one that passes every check (weight 30), sometimes a near miss (weight 1 each). */
function passingOrNot<T>(passing: fc.Arbitrary<T>, ...misses: fc.Arbitrary<T>[]): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: passing, weight: 30 }, ...misses.map((arbitrary) => ({ arbitrary, weight: 1 })));
}

/** Strings for a string with `checks`: mostly passing them all, and near misses. */
function stringFor(checks: readonly Check[]): fc.Arbitrary<string> {
  const misses: fc.Arbitrary<string>[] = [fc.string({ maxLength: 20 }), fc.constantFrom('', ' ', '   ', 'a')];
  let passing: fc.Arbitrary<string> = fc.string({ minLength: 1, maxLength: 20 });
  for (const c of checks) {
    if (c.kind === 'regex') {
      const matching = fc.stringMatching(new RegExp(c.source, c.flags));
      passing = c.source.includes('0-9a-fA-F]{8}-') ? fc.oneof(matching, fc.uuid()) : matching;
      misses.push(
        matching.map((s) => `${s}x`),
        matching.map((s) => s.slice(1)),
      );
      if (c.source.includes('0-9a-fA-F]{8}-')) misses.push(fc.uuid({ version: [1, 2, 3, 4, 5, 6, 7, 8, 9, 15] }));
    }
    if (c.kind === 'custom' && c.name === 'httpUrl') {
      passing = fc.webUrl();
      misses.push(
        fc.webUrl({ validSchemes: ['http', 'https', 'ftp', 'ws'] }),
        fc.constantFrom('http://', 'https://', 'http://[::1]:8080/x', 'file:///etc/p', 'https:x', 'http://a b'),
      );
    }
    if (c.kind === 'custom' && c.name === 'notBlank') misses.push(fc.constantFrom('   ', ' A '));
    if (c.kind === 'min_length' || c.kind === 'max_length')
      misses.push(fc.string({ minLength: Math.max(0, c.value - 1), maxLength: c.value + 1 }));
  }
  return passingOrNot(passing, ...misses);
}

/** Numbers for a number with `checks`: mostly an integer within its bounds, and its edges, any double. */
function numberFor(checks: readonly Check[]): fc.Arbitrary<number> {
  const edges = new Set<number>([0, -1, 1, 0.5, 2 ** 53, 2 ** 53 - 1]);
  let lo = -1000;
  let hi = Number.MAX_SAFE_INTEGER;
  for (const c of checks) {
    if (c.kind === 'greater_than') lo = Math.max(lo, Math.floor(c.value) + (c.inclusive ? 0 : 1));
    if (c.kind === 'less_than') hi = Math.min(hi, Math.ceil(c.value) - (c.inclusive ? 0 : 1));
    if (c.kind === 'greater_than' || c.kind === 'less_than')
      for (const d of [-1, -0.5, 0, 0.5, 1]) edges.add(c.value + d);
  }
  return passingOrNot(
    fc.integer({ min: lo, max: Math.max(lo, Math.min(hi, lo + 1_000_000)) }),
    fc.constantFrom(...edges),
    fc.double({ noNaN: true }),
  );
}

/** An input for `s`: mostly fitting, sometimes junk; `undefined` stands for an absent key. */
function inputFor(s: Shape, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: fitting(s, depth), weight: 40 }, { arbitrary: junk, weight: 1 });
}

function fitting(s: Shape, depth: number): fc.Arbitrary<unknown> {
  switch (s.type) {
    case 'default':
    case 'prefault':
    case 'optional':
      return fc.oneof(fc.constant(undefined), inputFor(s.inner, depth + 1));
    case 'wrapper':
      return inputFor(s.inner, depth + 1);
    case 'object': {
      const entries = Object.entries(s.shape).map(
        ([k, v]) =>
          [
            k,
            fc.oneof(
              { arbitrary: inputFor(v, depth + 1), weight: 60 },
              { arbitrary: fc.constant(undefined), weight: 1 }, // a required key dropped
            ),
          ] as const,
      );
      const extra = fc.oneof(
        { arbitrary: fc.constant(null), weight: 60 },
        {
          arbitrary: fc.tuple(fc.constantFrom('extra', '__proto__', 'constructor', 'toString', 'Port', ''), junk),
          weight: 1,
        },
      );
      return fc.tuple(fc.tuple(...entries.map(([k, a]) => a.map((v) => [k, v] as const))), extra).map(([kvs, x]) => {
        const o: Record<string, unknown> = {};
        for (const [k, v] of kvs) if (v !== undefined) o[k] = v;
        if (x) Object.defineProperty(o, x[0], { value: x[1], enumerable: true, writable: true, configurable: true });
        return o;
      });
    }
    case 'union': {
      const disc = s.discriminator;
      const options = s.options.map((o) => fitting(o, depth + 1));
      const misnamed = disc
        ? [fc.oneof(...options).map((v) => (v && typeof v === 'object' ? { ...v, [disc]: 'nope' } : v))]
        : [];
      return fc.oneof(
        ...options.map((arbitrary) => ({ arbitrary, weight: 8 })),
        ...misnamed.map((arbitrary) => ({ arbitrary, weight: 1 })),
      );
    }
    case 'literal':
    case 'enum':
      return fc.oneof(
        { arbitrary: fc.constantFrom(...s.values), weight: 12 },
        { arbitrary: fc.constantFrom('', 'Virtual', 'x'), weight: 1 },
      );
    case 'string':
      return stringFor(s.checks);
    case 'number':
      return numberFor(s.checks);
    case 'boolean':
      return fc.oneof({ arbitrary: fc.boolean(), weight: 12 }, { arbitrary: fc.constantFrom('true', 0, 1), weight: 1 });
    case 'opaque':
      return junk;
  }
}

/** Valid configurations the fast path must decide (a fast path that always declines would pass the property). */
function shipped(): Record<string, unknown> {
  return JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as Record<string, unknown>;
}

describe('fastParse against zod', () => {
  it(`generated configurations: undefined, or zod's output (${RUNS} runs)`, () => {
    let decided = 0;
    fc.assert(
      fc.property(inputFor(CONFIG_SHAPE), (x) => {
        if (agrees(x).fast) decided++;
      }),
      // Most generated configurations carry a miss somewhere: only 2-6 in 1,000 came out wholly valid (measured),
      // so a run with none happened (~3 % of runs: the flake of session 10). The shipped configuration is given as
      // an example; the next test holds the fast path's rate of decisions (~660 in 1,000) on valid bases.
      { numRuns: RUNS, examples: [[shipped()]] },
    );
    expect(decided).toBeGreaterThan(0);
  });

  it('generated configurations built on the shipped one: one section replaced at a time', () => {
    const base = shipped();
    const shape = CONFIG_SHAPE as Extract<Shape, { type: 'object' }>;
    const section = fc.oneof(...Object.entries(shape.shape).map(([k, v]) => inputFor(v).map((x) => [k, x] as const)));
    let decided = 0;
    fc.assert(
      fc.property(fc.array(section, { minLength: 1, maxLength: 3 }), (changes) => {
        const x: Record<string, unknown> = structuredClone(base);
        for (const [k, v] of changes) {
          if (v === undefined) delete x[k];
          else x[k] = v;
        }
        if (agrees(x).fast) decided++;
      }),
      { numRuns: RUNS },
    );
    expect(decided).toBeGreaterThan(RUNS / 10);
  });

  it('decides the shipped configuration and a production one, as zod parses them', () => {
    const prod = shipped();
    prod.environment = 'production';
    prod.sandbox = { embedded: false };
    prod.pinpad = { device: { kind: 'serial', path: '/dev/pinpad' }, pinKeySlot: 5 };
    prod.printer = { kind: 'usb', vendorId: '0519', productId: '0001' };
    prod.api = { lan: { host: '0.0.0.0', certFile: 'c.pem', keyFile: 'k.pem' } };
    prod.alarms = { webhook: { url: 'https://hooks.example/omnipos', secretFile: 'hook' } };
    prod.fleet = { mqtt: { url: 'mqtts://broker.example:8883', merchant: 'padaria-sol' } };
    for (const x of [shipped(), prod]) expect(agrees(x).fast).toBe(true);
  });

  it('declines, and zod refuses: the edges a hand-written validator misses', () => {
    const cases: [string, (c: Record<string, any>) => void][] = [
      ['an integer past 2^53', (c) => (c.pinpad = { device: { kind: 'serial', path: '/p', baudRate: 2 ** 53 } })],
      ['Infinity', (c) => (c.qr = { pollMs: Infinity })],
      ['an own __proto__ key', (c) => Object.defineProperty(c, '__proto__', { value: {}, enumerable: true })],
      ['a UUID of version 9', (c) => (c.terminal.subordinatedMerchantId = '11111111-1111-9111-8111-111111111111')],
      ['a URL without a host', (c) => (c.acquirer.omni.authUrl = 'http://')],
      ['a blank soft descriptor', (c) => (c.terminal.softDescriptor = '   ')],
      ['a discriminator no option has', (c) => (c.printer = { kind: 'laser' })],
      ['an array for an object', (c) => (c.api = [])],
      ['a missing required key', (c) => delete c.stateDir],
      ['an unknown key', (c) => (c.terminal.extra = 1)],
    ];
    for (const [what, change] of cases) {
      const x = shipped() as Record<string, any>;
      change(x);
      expect(fastParse(CONFIG_SHAPE, x), what).toBeUndefined();
      expect(zodParse(x).success, what).toBe(false);
    }
  });
});
