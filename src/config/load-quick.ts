import { CONFIG_SHAPE } from './config-shape.generated.js';
import { fastParse } from './fast-parse.js';
import { completeConfig, readConfigFile, type Config, type LoadOptions } from './read.js';
import type { ConfigValues } from './schema.js';

/**
 * `loadConfig` for a command that must start fast (`omnipos api token`): the same configuration and
 * the same errors, but zod (its chunk, the schema's construction, the parse: ~20 ms of CPU on Node 22)
 * loads only when the fast path declines — a configuration it is not sure of, or an override problem —
 * and then loadConfig does everything again, so every message is zod's.
 */
export async function loadConfigQuickly(options: LoadOptions = {}): Promise<Config> {
  const { source, raw, overrides } = readConfigFile(options);
  const fast = overrides.problems.length === 0 ? fastParse(CONFIG_SHAPE, raw) : undefined;
  if (fast !== undefined) return completeConfig(fast as ConfigValues, source, overrides.applied);
  const { loadConfig } = await import('./load.js');
  return loadConfig(options);
}
