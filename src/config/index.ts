export {
  loadConfig,
  describeConfig,
  DEFAULT_CONFIG_PATH,
  PACKAGE_ROOT,
  type Config,
  type LoadOptions,
} from './load.js';
export {
  CARD_NOT_PRESENT_KINDS,
  ConfigSchema,
  Environment,
  configJsonSchema,
  type ConfigValues,
  type ConfigInput,
} from './schema.js';
export {
  ACQUIRER_KINDS,
  acquirerKeys,
  acquirerAddresses,
  acquirerTimeoutMs,
  type AcquirerKind,
  type AcquirerKeys,
} from './acquirer-kinds.js';
export type { AcquirerConfigKind } from './acquirer-kind.js';
export type { OmniKeys } from './acquirer-omni.js';
export { Secret } from './secret.js';
export { type ConfigProblem, formatProblem } from './problems.js';
export { isLoopbackHost, productionProblems } from './environment-guard.js';
export { applySandboxDefaults, outsideSandboxProblems } from './outside-sandbox.js';
export { fleetMqttSettings, type FleetMqttSettings } from './fleet.js';
