/** Fleet telemetry's public surface (docs/architecture.md "Rings"): the MQTT client, its messages, topics, commands and view, the telemetry outbox and the Prometheus metrics. */
export {
  FleetClient,
  DAY_RETAIN_SECONDS,
  type FleetSources,
  type FleetClientOptions,
  type FleetPaymentEvent,
} from './client.js';
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
export { TelemetryOutbox, type TelemetryMessage, type TelemetryCounts } from './telemetry-outbox.js';
export { FleetTopics, splitFleetTopic } from './topics.js';
export { FleetView, type TerminalView, type DayTotals } from './view.js';
