import { isStartAborted } from '../core/index.js';

/** What a long-running command started and must stop. */
export interface Running {
  stop(): Promise<void>;
}

export interface ServeOptions {
  /** Starts the service; rejects (having closed what it opened) on failure or when `signal` aborts. */
  start(signal: AbortSignal): Promise<Running>;
  /** Called once the stop was asked for during start-up and the start-up closed what it had opened. */
  onAbortedStart?(): void;
  /** How long a stop may take after the first SIGTERM/SIGINT before the process exits anyway, in ms. */
  stopBoundMs?: number;
}

/**
 * Below systemd's TimeoutStopSec=30 (systemd/omnipos.service), so the unit never needs SIGKILL:
 * each part has 5 s to close (src/main/held.ts) and the whole stop this much.
 */
export const STOP_BOUND_MS = 20_000;

/**
 * Runs a service until SIGTERM or SIGINT, for `omnipos run` and `omnipos sandbox`:
 * - the signal handlers are in place before the start-up begins, so a stop asked at any moment of
 *   the start-up cuts it short (it closes what it opened and the command returns 0);
 * - a failed start-up rejects with its error (the CLI prints one line and exits with its code) and
 *   leaves nothing keeping the process alive;
 * - from the first signal on, the process ends within `stopBoundMs` even if a part hangs; a second
 *   signal ends it at once.
 */
export async function serveUntilStopped(options: ServeOptions): Promise<number> {
  const bound = options.stopBoundMs ?? STOP_BOUND_MS;
  const controller = new AbortController();
  let deadline: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      // A second signal: the operator insists.
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    }
    controller.abort();
    deadline = setTimeout(() => {
      process.stderr.write(`omnipos: the stop took longer than ${bound} ms; exiting anyway\n`);
      process.exit(1);
    }, bound);
    // Only fires if something still keeps the process alive after the stop.
    deadline.unref();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // Signals do not keep Node's event loop alive: this timer does, until a stop is asked.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    let running: Running;
    try {
      running = await options.start(controller.signal);
    } catch (e) {
      if (isStartAborted(e)) {
        options.onAbortedStart?.();
        return 0;
      }
      throw e;
    }
    if (!controller.signal.aborted)
      await new Promise<void>((resolve) =>
        controller.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
    await running.stop();
    return 0;
  } finally {
    clearInterval(keepAlive);
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    if (!controller.signal.aborted) {
      // A failed start: nothing should be left open, but a part we do not own might be; do not
      // hang on it (a start-up that failed must exit, e.g. to let systemd restart it).
      setTimeout(() => process.exit(), bound).unref();
    }
  }
}
