export { createLogger, type Logger, type LoggerOptions } from './logger.js';
export { scrubText, scrubValue, isSensitiveKey, REDACTED } from './scrub.js';
