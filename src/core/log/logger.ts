import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { scrubError, scrubText, scrubValue } from './scrub.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** Minimum level written. Default `info`. */
  level?: LevelWithSilent;
  /** Where lines go. Default: standard output. */
  destination?: DestinationStream;
  /** Bound to every line, e.g. `{ terminal: '00000001' }`. Scrubbed like everything else. */
  base?: Record<string, unknown>;
}

function scrubArgs(args: unknown[]): unknown[] {
  const [first, ...rest] = args;
  if (first instanceof Error) {
    const err = scrubError(first);
    const tail = rest.map((a) => scrubValue(a));
    return tail.length > 0 ? [{ err }, ...tail] : [{ err }, err.message];
  }
  return args.map((a) => (typeof a === 'string' ? scrubText(a) : scrubValue(a)));
}

/**
 * The one root logger. Components get `log.child({ component })` through their constructors;
 * there is no global logger. Every call goes through the scrubber (see scrub.ts), including the
 * bindings of child loggers.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  return scrubChildBindings(
    pino(
      {
        level: options.level ?? 'info',
        base: options.base ? (scrubValue(options.base) as Record<string, unknown>) : undefined,
        hooks: {
          logMethod(inputArgs, method) {
            const args = scrubArgs(inputArgs) as Parameters<typeof method>;
            return method.apply(this, args);
          },
        },
        formatters: {
          bindings: (bindings) => scrubValue(bindings) as Record<string, unknown>,
        },
      },
      options.destination ?? pino.destination({ fd: 1, sync: false }),
    ),
  );
}

/** pino's bindings formatter sees only the root's bindings; children get theirs scrubbed here. */
function scrubChildBindings(logger: Logger): Logger {
  const child = logger.child.bind(logger);
  // pino builds a child on its parent's prototype chain: the property must stay redefinable.
  Object.defineProperty(logger, 'child', {
    value: (bindings: Record<string, unknown>, opts?: object) =>
      scrubChildBindings(child(scrubValue(bindings) as Record<string, unknown>, opts)),
    configurable: true,
    writable: true,
  });
  return logger;
}
