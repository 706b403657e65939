export { createLogger, type Logger, type LoggerOptions } from './logger.js';
export { scrubText, scrubValue, isSensitiveKey, isIdentifierKey, REDACTED } from './scrub.js';
