import { createLogger, type Logger } from '../../src/core/log/index.js';

/** A real pino logger writing into an array, so tests read exactly the bytes a log file would get. */
export function captureLogger(level: 'info' | 'debug' | 'trace' = 'debug'): { log: Logger; output: () => string } {
  const lines: string[] = [];
  const log = createLogger({ level, destination: { write: (s: string) => void lines.push(s) } });
  return { log, output: () => lines.join('') };
}
