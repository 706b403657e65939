/** Fleet telemetry's public surface (docs/architecture.md "Rings"): the MQTT client, its messages, topics, commands and view, the telemetry outbox and the Prometheus metrics. */
// The MQTT client and the telemetry outbox load with `await import()` only when fleet.mqtt is
// configured (fast start): this surface names their types; src/main/fleet.ts imports the modules.
export type { FleetClient } from './client.js';
export { FLEET_COMMANDS } from './commands.js';
export { paymentMethod } from './messages.js';
export { TerminalMetrics, type MetricsSources } from './metrics.js';
export type { TelemetryOutbox } from './telemetry-outbox.js';
export { FleetView } from './view.js';
