export { loadConfig, describeConfig, DEFAULT_CONFIG_PATH, PACKAGE_ROOT, type Config } from './load.js';
export { Environment, configJsonSchema, type ConfigValues } from './schema.js';
export { CARD_NOT_PRESENT_KINDS, type CnpKind } from './card-not-present-kinds.js';
export {
  ACQUIRER_KINDS,
  acquirerKeys,
  acquirerTimeoutMs,
  type AcquirerKind,
  type KindSecrets,
} from './acquirer-kinds.js';
export type { OmniKeys } from '../acquirer/omni/config.js';
export { type ConfigProblem, formatProblem } from './problems.js';
export { isLoopbackHost } from './environment-guard.js';
export { fleetMqttSettings, type FleetMqttSettings } from './fleet.js';
