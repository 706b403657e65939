export { AlarmMonitor, type AlarmEventSource } from './monitor.js';
export { conditions, engineAlarmKey, type AlarmSnapshot } from './conditions.js';
export { WebhookQueue, WebhookSender, signWebhook, verifyWebhook } from './webhook.js';
