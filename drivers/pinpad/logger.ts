/**
 * The logging the driver needs, shaped like pino's so the composition root passes
 * `log.child({ component: 'pinpad' })` (drivers/ may not import src/core/log). The driver logs
 * command ids, lengths, link events and errors, never packet contents: card data rides in them.
 */
export interface DriverLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export const SILENT_LOGGER: DriverLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined };
