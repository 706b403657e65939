import { StartAborted, startError } from '../core/index.js';
import type { Logger } from '../core/log/index.js';

interface Entry {
  what: string;
  close: () => unknown;
}

/** How long one part may take to close before the next is closed anyway, in ms. */
const CLOSE_STEP_MS = 5000;

/**
 * What a starting daemon has opened, in order. Each part is registered as soon as it exists; a
 * failure or a stop request before the daemon is ready closes what was opened, newest first, and
 * `stop()` closes the same list. Closing never throws and never waits more than
 * {@link CLOSE_STEP_MS} on one part, so a part that hangs cannot keep the others open.
 */
export class Held {
  private readonly entries: Entry[] = [];
  private closing: Promise<void> | undefined;

  constructor(
    private readonly log: Logger,
    private readonly signal?: AbortSignal,
  ) {}

  /** Registers a part to close. */
  add(what: string, close: () => unknown): void {
    this.entries.push({ what, close });
  }

  /** Throws {@link StartAborted} when a stop was asked for while starting. */
  check(): void {
    if (this.signal?.aborted) throw new StartAborted();
  }

  /**
   * Runs one step of the start-up: a stop asked before or during it aborts the start; an error that
   * is not one of ours is named after the step (one line for the technician: what and where).
   */
  async step<T>(what: string, open: () => T | Promise<T>): Promise<T> {
    this.check();
    let value: T;
    try {
      value = await open();
    } catch (e) {
      throw startError(what, e);
    }
    // No check here: a stop asked while this part opened is seen at the next step (or check()),
    // once the caller has registered the part's close; thrown here, the part would stay open and
    // keep the process alive (a virtual pinpad's listener after "database migrated" and a SIGTERM).
    return value;
  }

  /** Closes everything registered, newest first; idempotent. */
  closeAll(): Promise<void> {
    this.closing ??= (async () => {
      for (const entry of this.entries.splice(0).reverse()) {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(entry.close),
            new Promise<void>((resolve) => {
              timer = setTimeout(() => {
                this.log.warn(
                  { part: entry.what, waitedMs: CLOSE_STEP_MS },
                  'a part did not close in time; closing the others',
                );
                resolve();
              }, CLOSE_STEP_MS);
            }),
          ]);
        } catch (e) {
          this.log.warn({ part: entry.what, err: e }, 'a part failed to close');
        } finally {
          clearTimeout(timer);
        }
      }
    })();
    return this.closing;
  }
}
