export { AlarmMonitor, type AlarmMonitorOptions, type AlarmEventSource } from './monitor.js';
export { conditions, engineAlarmKey, type AlarmSnapshot, type AlarmThresholds } from './conditions.js';
export {
  WebhookQueue,
  WebhookSender,
  signWebhook,
  verifyWebhook,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  ALARM_ID_HEADER,
  type WebhookSenderOptions,
} from './webhook.js';
export type { Alarm, AlarmSeverity, Condition } from './types.js';
