/** Fleet telemetry's public surface (docs/architecture.md "Rings"): the MQTT client, its messages, topics, commands and view, the telemetry outbox and the Prometheus metrics. */
// The MQTT client and the telemetry outbox load with `await import()` only when fleet.mqtt is
// configured (fast start): this surface names their types; src/main/fleet.ts imports the modules.
export type { FleetClient, FleetSources, FleetClientOptions, FleetPaymentEvent } from './client.js';
export { FLEET_COMMANDS, MAX_COMMAND_BYTES, checkCommand, type FleetCommand, type CommandCheck } from './commands.js';
export {
  FINAL_STATUSES,
  mask64,
  scrubbed,
  paymentMethod,
  paymentMessage,
  alarmMessage,
  dayMessage,
  type AlarmFacts,
  type DayFacts,
} from './messages.js';
export { TerminalMetrics, type MetricsSources } from './metrics.js';
export type { TelemetryOutbox, TelemetryMessage, TelemetryCounts } from './telemetry-outbox.js';
export { FleetTopics, splitFleetTopic } from './topics.js';
export { FleetView, type TerminalView, type DayTotals } from './view.js';
