import { CONFIG_SHAPE } from './config-shape.generated.js';
import { fastParse } from './fast-parse.js';
import { problemsFromZod } from './problems.js';
import { completeConfig, invalid, readConfigFile, type Config, type LoadOptions } from './read.js';
import { ConfigSchema, type ConfigValues } from './schema.js';

export { DEFAULT_CONFIG_PATH, PACKAGE_ROOT, type Config, type LoadOptions } from './read.js';

/**
 * Loads, overrides, validates and freezes the configuration. The only reader of configuration
 * files, secret files and process.env. Throws CONFIG_NOT_FOUND, or CONFIG_INVALID (or
 * ENVIRONMENT_REFUSED for a production terminal with test parts) whose context lists every
 * problem by key path. A configuration the fast path (fast-parse.ts) is sure of skips zod's parse,
 * with the same result; anything else zod parses, and its messages are the problems.
 */
export function loadConfig(options: LoadOptions = {}): Config {
  const { source, raw, overrides } = readConfigFile(options);
  const fast = overrides.problems.length === 0 ? fastParse(CONFIG_SHAPE, raw) : undefined;
  if (fast !== undefined) return completeConfig(fast as ConfigValues, source, overrides.applied);
  // Parsed once per process: zod's interpreter, not its compiled fast path (compiling each object's
  // parser costs more than it saves on one parse; the same checks either way).
  const parsed = ConfigSchema.safeParse(raw, {
    jitless: true,
    error: (iss) =>
      iss.input === undefined && (iss.code === 'invalid_type' || iss.code === 'invalid_value')
        ? 'is required'
        : undefined,
  });
  const problems = [...overrides.problems, ...(parsed.success ? [] : problemsFromZod(parsed.error))];
  if (!parsed.success || problems.length > 0) throw invalid(problems, source);
  return completeConfig(parsed.data, source, overrides.applied);
}

/** The effective configuration with every secret masked, for `omnipos config check`. */
export function describeConfig(config: Config): Record<string, unknown> {
  return {
    source: config.source,
    overrides: config.overrides,
    values: config.values,
    // Each Secret writes itself as `[secret from FILE]` (the acquirer kind's are one level down).
    secrets: JSON.parse(JSON.stringify(config.secrets)) as unknown,
  };
}
