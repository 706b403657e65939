export {
  loadConfig,
  describeConfig,
  DEFAULT_CONFIG_PATH,
  PACKAGE_ROOT,
  type Config,
  type LoadOptions,
} from './load.js';
export {
  ACQUIRER_KINDS,
  ConfigSchema,
  Environment,
  configJsonSchema,
  type AcquirerKind,
  type ConfigValues,
  type ConfigInput,
} from './schema.js';
export { Secret } from './secret.js';
export { type ConfigProblem, formatProblem } from './problems.js';
export { ACQUIRER_URL_KEYS, isLoopbackHost, productionProblems } from './environment-guard.js';
export { applySandboxDefaults, outsideSandboxProblems } from './outside-sandbox.js';
export { fleetMqttSettings, type FleetMqttSettings } from './fleet.js';
