import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OmniposError } from '../core/index.js';
import { CONFIG_SHAPE } from './config-shape.generated.js';
import { legacyAcquirerPath, migrateLegacyAcquirer, type AcquirerSecrets } from './acquirer-kinds.js';
import type { CnpSecrets } from './card-not-present-kinds.js';
import { applyEnvOverrides, type Overrides } from './env-overrides.js';
import { productionProblems } from './environment-guard.js';
import { applySandboxDefaults, outsideSandboxProblems } from './outside-sandbox.js';
import { portKinds, type KindKeys } from './port-kinds.js';
import { formatProblem, type ConfigProblem } from './problems.js';
import type { ConfigValues } from './schema.js';
import { shapeHasPath, shapePathIsText } from './shape.js';
import { Secret } from './secret.js';
import { secretModeProblems } from './secret-modes.js';
import { SANDBOX_CREDENTIALS } from '../../tables/sandbox-credentials.js';

/*
 * The configuration's reading, zod-free: the file, the OMNIPOS_* overrides (walked on the schema's
 * generated shape) and what follows validation (paths, secrets, the production guard, freezing).
 * load.ts validates with the fast path, else zod; load-quick.ts loads zod only when the fast path
 * declines (`omnipos api token`).
 */

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
    /** The configured acquirer kind's secrets under its name (`acquirer.omni.clientSecret`), read through the kind. */
    acquirer: AcquirerSecrets;
    apiLanKey?: Secret;
    alarmWebhookSecret?: Secret;
    /**
     * The configured card-not-present kind's secrets under its name (`cardNotPresent.webservice15.key`),
     * read through the kind; absent when its kind declares none (or none is configured).
     */
    cardNotPresent?: CnpSecrets;
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

export function invalid(problems: ConfigProblem[], source: string): OmniposError {
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

/**
 * A configured kind's secret files (the acquirer's, the card-not-present port's), their paths resolved
 * (in `values`, through `keys`) and read, by the names its `secrets` list gives them. A required one
 * that could not be read is a problem (the load throws), so the kind's typed secrets hold every secret
 * it requires.
 */
function readKindSecrets(
  a: KindKeys,
  resolve: (p: string) => string,
  problems: ConfigProblem[],
): Readonly<Record<string, Secret>> {
  const out: Record<string, Secret> = {};
  for (const s of a.rules.secrets) {
    const file = a.keys[s.key];
    if (typeof file !== 'string') continue;
    const resolved = resolve(file);
    a.keys[s.key] = resolved;
    const secret = readSecret(resolved, `${a.path}.${s.key}`, problems);
    if (secret) out[s.secret] = secret;
  }
  return out;
}

/** The secrets of the two ports' configured kinds, each under its kind, and by name for the guards. */
function readPortSecrets(values: ConfigValues, resolve: (p: string) => string, problems: ConfigProblem[]) {
  const { acquirer: a, cardNotPresent: c } = portKinds(values);
  const acquirer = readKindSecrets(a, resolve, problems);
  const cnp = c ? readKindSecrets(c, resolve, problems) : {};
  return {
    acquirer: { kind: a.kind, [a.kind]: acquirer } as AcquirerSecrets,
    ...(c && c.rules.secrets.length > 0 ? { cardNotPresent: { kind: c.kind, [c.kind]: cnp } as CnpSecrets } : {}),
    byName: { acquirer, cardNotPresent: cnp },
  };
}

function freeze<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Secret)) {
    for (const v of Object.values(value)) freeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The file read and parsed, the OMNIPOS_* overrides applied (in place) to `raw`, not yet validated. */
export interface RawConfig {
  readonly source: string;
  readonly raw: Record<string, unknown>;
  readonly overrides: Overrides;
}

/** Reads the configuration file and applies the overrides. Throws CONFIG_NOT_FOUND, or CONFIG_INVALID for a file that is not a JSON object. */
export function readConfigFile(options: LoadOptions = {}): RawConfig {
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
  migrateLegacyAcquirer(raw as Record<string, unknown>);
  const overrides = applyEnvOverrides(
    raw as Record<string, unknown>,
    env,
    (p) => shapeHasPath(CONFIG_SHAPE, p),
    (p) => shapePathIsText(CONFIG_SHAPE, p, raw),
    (p) => legacyAcquirerPath(p, raw as Record<string, unknown>),
  );
  return { source, raw: raw as Record<string, unknown>, overrides };
}

/**
 * The rest of loading once `values` passed the schema: the sandbox's defaults, paths resolved against
 * the file's folder, the secret files read, the production guard, everything frozen.
 */
export function completeConfig(
  values: ConfigValues,
  source: string,
  overrides: RawConfig['overrides']['applied'],
): Config {
  const problems: ConfigProblem[] = [];
  const missing = outsideSandboxProblems(values);
  if (missing.length > 0) throw invalid(missing, source);
  applySandboxDefaults(values);
  const dir = path.dirname(source);
  const resolve = (p: string): string => path.resolve(dir, p);
  values.stateDir = resolve(values.stateDir);
  if (values.supervisor.passwordFile) values.supervisor.passwordFile = resolve(values.supervisor.passwordFile);
  if (values.alarms.webhook) values.alarms.webhook.secretFile = resolve(values.alarms.webhook.secretFile);

  const { byName, ...secrets } = readPortSecrets(values, resolve, problems);
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
  const sandboxValues = new Set(Object.values(SANDBOX_CREDENTIALS));
  const published = new Set(
    [...Object.values(byName.acquirer), ...Object.values(byName.cardNotPresent)]
      .filter((k) => sandboxValues.has(k.reveal()))
      .map((k) => k.source),
  );
  problems.push(...secretModeProblems(values, dir, published));
  if (problems.length > 0) throw invalid(problems, source);

  const refused = productionProblems(values, byName);
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
      ...secrets,
      ...(apiLanKey ? { apiLanKey } : {}),
      ...(alarmWebhookSecret ? { alarmWebhookSecret } : {}),
    },
    ...(apiLanCert ? { apiLanCert: apiLanCert.reveal() } : {}),
    source,
    overrides,
  });
}
