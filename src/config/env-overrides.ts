import type { ConfigProblem } from './problems.js';

/** Variables that are not single-key overrides. */
const RESERVED = new Set(['OMNIPOS_CONFIG']);

/** `STATE_DIR` → `stateDir`; `ACQUIRER__OMNI__QUERY_URL` → `acquirer.omni.queryUrl`. */
export function envKeyToPath(name: string): string[] {
  return name
    .split('__')
    .map((seg) => seg.toLowerCase().replace(/_([a-z0-9])/g, (_m: string, c: string) => c.toUpperCase()));
}

function parseValue(raw: string): unknown {
  const t = raw.trim();
  if (/^(true|false|null|-?\d+(\.\d+)?)$/.test(t) || t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return raw;
    }
  }
  return raw;
}

/** Names of upper-case letters, digits and underscores: every OMNIPOS_<KEY> variable as documented. */
const PLAIN_NAME = /^[A-Z0-9_]*$/;

/**
 * The order `a.localeCompare(b)` gives, without ICU's collator for the common names (creating it costs
 * ~5 ms of CPU at every start, a quarter of a bare `node -e 0`): for names of upper-case letters, digits
 * and underscores the root collation orders `_` before digits before letters, character by character,
 * a prefix first — code-unit order once `_` reads as a space. Any other name goes to localeCompare.
 * (test/unit/config/env-overrides.test.ts holds it equal to localeCompare.)
 */
export function compareVariableNames(a: string, b: string): number {
  if (!PLAIN_NAME.test(a) || !PLAIN_NAME.test(b)) return a.localeCompare(b);
  const x = a.replaceAll('_', ' ');
  const y = b.replaceAll('_', ' ');
  return x < y ? -1 : x > y ? 1 : 0;
}

export interface Overrides {
  applied: { variable: string; path: string }[];
  problems: ConfigProblem[];
}

/**
 * Applies every `OMNIPOS_<KEY>` variable of `env` to `raw` (in place). `knows(path)` says whether
 * the key exists in the schema; an unknown key is a problem, not silently ignored.
 */
export function applyEnvOverrides(
  raw: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  knows: (path: string[]) => boolean,
  /** Whether the key holds text: its value is taken as written (`OMNIPOS_TERMINAL__TERMINAL_ID=42004301` is the text "42004301", not a number). */
  isText: (path: string[]) => boolean = () => false,
  /** A key path as the configuration now spells it (an old spelling still accepted). */
  rename: (path: string[]) => string[] = (p) => p,
): Overrides {
  const result: Overrides = { applied: [], problems: [] };
  const ours = Object.entries(env).filter(
    (e): e is [string, string] => e[0].startsWith('OMNIPOS_') && !RESERVED.has(e[0]) && e[1] !== undefined,
  );
  for (const [variable, value] of ours.sort(([a], [b]) => compareVariableNames(a, b))) {
    const path = rename(envKeyToPath(variable.slice('OMNIPOS_'.length)));
    if (!knows(path)) {
      result.problems.push({ path: variable, message: `no configuration key ${path.join('.')}` });
      continue;
    }
    let node: Record<string, unknown> = raw;
    for (const seg of path.slice(0, -1)) {
      const next = node[seg];
      if (next === null || typeof next !== 'object' || Array.isArray(next)) node[seg] = {};
      node = node[seg] as Record<string, unknown>;
    }
    node[path[path.length - 1] as string] = isText(path) ? value : parseValue(value);
    result.applied.push({ variable, path: path.join('.') });
  }
  return result;
}
