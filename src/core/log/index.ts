export { createLogger, type Logger } from './logger.js';
export { scrubText, scrubValue, isSensitiveKey, isOpaqueEmvField } from './scrub.js';
export { daemonDestination, rateLimited, rotatingFile } from './destination.js';
