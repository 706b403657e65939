/**
 * The core's public surface (docs/architecture.md "Rings"): errors, clock, money, payment kinds, chip tags,
 * the redaction functions and the logger's types. Two modules are entries of their own
 * (`ENTRIES` in eslint.layers.js), so that importing an error or a clock loads neither: the
 * logger, `./log/index.js` (`createLogger` loads pino), and systemd's notify protocol,
 * `./systemd.js` (it loads node:child_process, ~8 ms; only the daemon's composition root uses it).
 */
export * from './errors/index.js';
export { systemClock, localTime, sleep, HOST_TIME_ZONE, type Clock } from './clock.js';
export { HostClock } from './host-clock.js';
export { formatBRL, type Cents } from './money.js';
export * from './payment-kinds.js';
export * from './chip-tags.js';
export { healthTellsAlarmItself, type AlarmCode } from './alarm-codes.js';
export { hostName, isAllowedHost } from './host-header.js';
export {
  scrubText,
  scrubValue,
  isSensitiveKey,
  isIdentifierKey,
  isIdentifierValue,
  isOpaqueEmvField,
} from './log/scrub.js';
export type { Logger } from './log/logger.js';
export { TallyLog, tallyText } from './log/tally.js';
export { readXml, writeXml, xml, child, textAt, xmlDeclaredEncoding, XmlSyntaxError, type XmlElement } from './xml.js';
export { isStartAborted, StartAborted, startError } from './start.js';
export { withDeadline } from './deadline.js';
export { processAlive } from './process.js';
