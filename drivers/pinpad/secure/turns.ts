import { PinpadError } from '../errors.js';

/**
 * One command of the secure pinpad at a time, in order of arrival. A command waits here, not in the
 * link's queue, so that when the session is lost under the command on the wire, the new secure OPN
 * goes before every waiting command and each of them leaves sealed under the new key — or, when no
 * session comes back, fails before a byte of it is sent (ABECS 2.20 §5.2.2, §6.3.2).
 */
export class Turns {
  private tail: Promise<void> = Promise.resolve();

  /** Waits for this command's turn; resolves with the release. A signal aborted meanwhile rejects (PINPAD_CANCELLED), the turn passed on. */
  take(command: string, signal?: AbortSignal): Promise<() => void> {
    let release!: () => void;
    const done = new Promise<void>((r) => (release = r));
    const before = this.tail;
    this.tail = before.then(() => done);
    if (!signal) return before.then(() => release);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        release();
        reject(new PinpadError('PINPAD_CANCELLED', `${command}: cancelled before it was sent`, { command }));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      void before.then(() => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) return;
        resolve(release);
      });
    });
  }
}
