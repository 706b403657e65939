import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OmniposError } from '../core/index.js';
import { applyEnvOverrides } from './env-overrides.js';
import { productionProblems } from './environment-guard.js';
import { applySandboxDefaults, outsideSandboxProblems } from './outside-sandbox.js';
import { formatProblem, problemsFromZod, type ConfigProblem } from './problems.js';
import { ConfigSchema, type ConfigValues } from './schema.js';
import { schemaHasPath, schemaPathIsText } from './schema-walk.js';
import { Secret } from './secret.js';

/** The installed omnipos's root folder (the one holding package.json), from source or from dist/. */
export const PACKAGE_ROOT = ((): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();

/** The configuration shipped with omnipos: sandbox host and virtual devices. */
export const DEFAULT_CONFIG_PATH = path.join(PACKAGE_ROOT, 'config', 'omnipos.json');

export interface Config {
  readonly values: ConfigValues;
  readonly secrets: Readonly<{
    clientSecret: Secret;
    merchantKey?: Secret;
    apiLanKey?: Secret;
    alarmWebhookSecret?: Secret;
  }>;
  /** The LAN listener's PEM certificate (`api.lan.certFile`), when configured. */
  readonly apiLanCert?: string;
  /** The file the configuration came from. */
  readonly source: string;
  /** The OMNIPOS_* variables that overrode a key. */
  readonly overrides: readonly { variable: string; path: string }[];
}

export interface LoadOptions {
  /** `--config`; otherwise OMNIPOS_CONFIG; otherwise the shipped default. */
  path?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

function invalid(problems: ConfigProblem[], source: string): OmniposError {
  return new OmniposError(
    'CONFIG_INVALID',
    `configuration ${source} is invalid:\n${problems.map(formatProblem).join('\n')}`,
    { source, problems },
  );
}

function readSecret(file: string, key: string, problems: ConfigProblem[]): Secret | undefined {
  try {
    const value = readFileSync(file, 'utf8').trim();
    if (value === '') {
      problems.push({ path: key, message: `file ${file} is empty` });
      return undefined;
    }
    return new Secret(value, file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    problems.push({ path: key, message: `cannot read ${file} (${code})` });
    return undefined;
  }
}

function freeze<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Secret)) {
    for (const v of Object.values(value)) freeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Loads, overrides, validates and freezes the configuration. The only reader of configuration
 * files, secret files and process.env. Throws CONFIG_NOT_FOUND, or CONFIG_INVALID (or
 * ENVIRONMENT_REFUSED for a production terminal with test parts) whose context lists every
 * problem by key path.
 */
export function loadConfig(options: LoadOptions = {}): Config {
  const env = options.env ?? process.env;
  const source = path.resolve(options.path || env.OMNIPOS_CONFIG || DEFAULT_CONFIG_PATH);
  if (!existsSync(source)) {
    throw new OmniposError('CONFIG_NOT_FOUND', `configuration file ${source} does not exist`, { source });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(source, 'utf8'));
  } catch (e) {
    throw invalid([{ path: '(file)', message: `not valid JSON: ${(e as Error).message}` }], source);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalid([{ path: '(root)', message: 'must be a JSON object' }], source);
  }
  const overrides = applyEnvOverrides(
    raw as Record<string, unknown>,
    env,
    (p) => schemaHasPath(ConfigSchema, p),
    (p) => schemaPathIsText(ConfigSchema, p, raw),
  );
  const parsed = ConfigSchema.safeParse(raw, {
    error: (iss) =>
      iss.input === undefined && (iss.code === 'invalid_type' || iss.code === 'invalid_value')
        ? 'is required'
        : undefined,
  });
  const problems = [...overrides.problems, ...(parsed.success ? [] : problemsFromZod(parsed.error))];
  if (!parsed.success || problems.length > 0) throw invalid(problems, source);

  const values = parsed.data;
  const missing = outsideSandboxProblems(values);
  if (missing.length > 0) throw invalid(missing, source);
  applySandboxDefaults(values);
  const dir = path.dirname(source);
  const resolve = (p: string): string => path.resolve(dir, p);
  values.stateDir = resolve(values.stateDir);
  values.acquirer.clientSecretFile = resolve(values.acquirer.clientSecretFile);
  if (values.acquirer.merchantKeyFile) values.acquirer.merchantKeyFile = resolve(values.acquirer.merchantKeyFile);
  if (values.supervisor.passwordFile) values.supervisor.passwordFile = resolve(values.supervisor.passwordFile);
  if (values.alarms.webhook) values.alarms.webhook.secretFile = resolve(values.alarms.webhook.secretFile);

  const clientSecret = readSecret(values.acquirer.clientSecretFile, 'acquirer.clientSecretFile', problems);
  const merchantKey = values.acquirer.merchantKeyFile
    ? readSecret(values.acquirer.merchantKeyFile, 'acquirer.merchantKeyFile', problems)
    : undefined;
  let apiLanKey: Secret | undefined;
  let apiLanCert: Secret | undefined;
  if (values.api.lan) {
    values.api.lan.certFile = resolve(values.api.lan.certFile);
    values.api.lan.keyFile = resolve(values.api.lan.keyFile);
    apiLanCert = readSecret(values.api.lan.certFile, 'api.lan.certFile', problems);
    apiLanKey = readSecret(values.api.lan.keyFile, 'api.lan.keyFile', problems);
  }
  const alarmWebhookSecret = values.alarms.webhook
    ? readSecret(values.alarms.webhook.secretFile, 'alarms.webhook.secretFile', problems)
    : undefined;
  if (problems.length > 0) throw invalid(problems, source);

  const refused = productionProblems(values, clientSecret);
  if (refused.length > 0) {
    throw new OmniposError(
      'ENVIRONMENT_REFUSED',
      `refusing a production configuration with test parts:\n${refused.map(formatProblem).join('\n')}`,
      { source, problems: refused },
    );
  }
  return freeze({
    values,
    secrets: {
      clientSecret: clientSecret as Secret,
      ...(merchantKey ? { merchantKey } : {}),
      ...(apiLanKey ? { apiLanKey } : {}),
      ...(alarmWebhookSecret ? { alarmWebhookSecret } : {}),
    },
    ...(apiLanCert ? { apiLanCert: apiLanCert.reveal() } : {}),
    source,
    overrides: overrides.applied,
  });
}

/** The effective configuration with every secret masked, for `omnipos config check`. */
export function describeConfig(config: Config): Record<string, unknown> {
  return {
    source: config.source,
    overrides: config.overrides,
    values: config.values,
    secrets: Object.fromEntries(Object.entries(config.secrets).map(([k, s]) => [k, s.toJSON()])),
  };
}
