export { createLogger, type Logger, type LoggerOptions } from './logger.js';
export {
  scrubText,
  scrubValue,
  isSensitiveKey,
  isIdentifierKey,
  isIdentifierValue,
  isOpaqueEmvField,
  REDACTED,
} from './scrub.js';
export { daemonDestination, rateLimited, rotatingFile, type RotatingFileOptions } from './destination.js';
