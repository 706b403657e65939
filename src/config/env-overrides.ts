import type { ConfigProblem } from './problems.js';

/** Variables that are not single-key overrides. */
const RESERVED = new Set(['OMNIPOS_CONFIG']);

/** `STATE_DIR` → `stateDir`; `ACQUIRER__QUERY_URL` → `acquirer.queryUrl`. */
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
): Overrides {
  const result: Overrides = { applied: [], problems: [] };
  for (const [variable, value] of Object.entries(env).sort(([a], [b]) => a.localeCompare(b))) {
    if (!variable.startsWith('OMNIPOS_') || RESERVED.has(variable) || value === undefined) continue;
    const path = envKeyToPath(variable.slice('OMNIPOS_'.length));
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
