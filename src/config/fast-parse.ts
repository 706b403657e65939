import { CUSTOM_CHECKS } from './checks.js';
import type { Check, Shape } from './shape.js';

/**
 * zod's parse of the configuration, for the common case only, without zod: `fastParse(shape, input)`
 * is zod's output (defaults filled, keys in the schema's order) when it is sure zod accepts `input`,
 * and `undefined` otherwise — then zod decides, with its own messages. It follows zod 4's rules
 * (strict objects, `.default` returns its value unparsed, `.prefault` parses it, `.optional` leaves an
 * absent key out, a discriminated union picks its option by the discriminator) and declines everything
 * else: a failed check, a missing key, an `opaque` node or check, a wrapper. It never accepts what zod
 * refuses (test/unit/config/fast-parse.property.test.ts holds it to zod over generated configurations).
 */

const DECLINE: unique symbol = Symbol('decline');
const regexes = new Map<string, RegExp>();
function regexOf(c: Extract<Check, { kind: 'regex' }>): RegExp {
  const key = `${c.flags}/${c.source}`;
  let r = regexes.get(key);
  if (!r) regexes.set(key, (r = new RegExp(c.source, c.flags)));
  return r;
}

function passes(c: Check, input: string | number): boolean {
  switch (c.kind) {
    case 'min_length':
      return typeof input === 'string' && input.length >= c.value;
    case 'max_length':
      return typeof input === 'string' && input.length <= c.value;
    case 'regex': {
      if (typeof input !== 'string') return false;
      const r = regexOf(c);
      r.lastIndex = 0;
      return r.test(input);
    }
    case 'safeint':
      return Number.isSafeInteger(input);
    case 'greater_than':
      return typeof input === 'number' && (c.inclusive ? input >= c.value : input > c.value);
    case 'less_than':
      return typeof input === 'number' && (c.inclusive ? input <= c.value : input < c.value);
    case 'custom': {
      const fn = Object.hasOwn(CUSTOM_CHECKS, c.name) ? CUSTOM_CHECKS[c.name] : undefined;
      return typeof input === 'string' && fn !== undefined && fn(input) === true;
    }
    default:
      return false;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** zod's `optin`: whether an absent key is permitted (`optional`) or filled (`defaulted`). */
function optin(s: Shape): 'optional' | 'defaulted' | undefined {
  if (s.type === 'default' || s.type === 'prefault') return 'defaulted';
  if (s.type === 'optional') return optin(s.inner) === 'defaulted' ? 'defaulted' : 'optional';
  return undefined;
}

/** zod's output for `input`, or DECLINE. */
function run(s: Shape, input: unknown): unknown {
  switch (s.type) {
    case 'default': {
      if (input === undefined) return structuredClone(s.value);
      const r = run(s.inner, input);
      return r === undefined ? structuredClone(s.value) : r;
    }
    case 'prefault':
      return run(s.inner, input === undefined ? structuredClone(s.value) : input);
    case 'optional':
      if (input !== undefined) return run(s.inner, input);
      return optin(s.inner) === 'defaulted' ? DECLINE : undefined;
    case 'object': {
      if (!s.strict || !isObject(input)) return DECLINE;
      for (const key in input) if (!Object.hasOwn(s.shape, key) || key === '__proto__') return DECLINE;
      const out: Record<string, unknown> = {};
      for (const [key, el] of Object.entries(s.shape)) {
        // zod tells presence with `key in input`, which sees Object's own properties: not ours to guess.
        if (key === '__proto__' || key in Object.prototype) return DECLINE;
        const present = Object.hasOwn(input, key);
        const inOpt = optin(el);
        if (!present && inOpt === 'optional' && el.type === 'optional') continue;
        if (!present && inOpt === undefined) return DECLINE;
        const r = run(el, present ? input[key] : undefined);
        if (r === DECLINE) return DECLINE;
        if (r !== undefined) out[key] = r;
        else if (present || inOpt === 'defaulted') return DECLINE;
      }
      return out;
    }
    case 'union': {
      if (!s.exact || s.discriminator === undefined || !isObject(input)) return DECLINE;
      const named = input[s.discriminator];
      const option = s.options.find((o) => {
        const literal =
          o.type === 'object' && Object.hasOwn(o.shape, s.discriminator as string)
            ? o.shape[s.discriminator as string]
            : undefined;
        return literal?.type === 'literal' && literal.values.includes(named);
      });
      return option ? run(option, input) : DECLINE;
    }
    case 'literal':
    case 'enum':
      return s.values.includes(input) ? input : DECLINE;
    case 'string':
      return typeof input === 'string' && s.checks.every((c) => passes(c, input)) ? input : DECLINE;
    case 'number':
      return typeof input === 'number' && Number.isFinite(input) && s.checks.every((c) => passes(c, input))
        ? input
        : DECLINE;
    case 'boolean':
      return typeof input === 'boolean' ? input : DECLINE;
    default:
      return DECLINE;
  }
}

/** zod's output for `input` when the fast path is sure zod accepts it; otherwise undefined (ask zod). */
export function fastParse(shape: Shape, input: unknown): unknown {
  const r = run(shape, input);
  return r === DECLINE ? undefined : r;
}
