import { OmniposError, type JournalKind } from '../core/index.js';

/** Which payment holds the terminal: its kind and, once its journal row exists, its id. */
export interface PaymentHolder {
  kind: JournalKind;
  id?: number;
}

/**
 * What an engine is given of the terminal's one payment lock: it holds it for its payment's flow
 * and can tell who holds it. `PaymentLock` is the one implementation; the composition root builds
 * one per terminal and hands it to every engine (card and wallet QR sales, Pix sales, voids).
 */
export interface PaymentLease {
  readonly holder: PaymentHolder | undefined;
  hold<T extends { done: Promise<void> }>(
    kind: PaymentHolder['kind'],
    start: (attach: (id: number) => void) => Promise<T>,
  ): Promise<T>;
}

/**
 * One payment at a time per terminal: the acquirer refuses simultaneous payments of one
 * `TerminalId`, so card, wallet QR and Pix sales and voids take this one lock before anything
 * is journaled or sent, and hold it until their flow with the host is over (the `done` of their
 * `start`). A second payment meanwhile is ENGINE_BUSY (the API answers 409 BUSY).
 */
export class PaymentLock implements PaymentLease {
  #holder: PaymentHolder | undefined;

  get holder(): PaymentHolder | undefined {
    return this.#holder ? { ...this.#holder } : undefined;
  }

  get busy(): boolean {
    return this.#holder !== undefined;
  }

  /** Throws ENGINE_BUSY while a payment holds the lock. */
  assertFree(): void {
    const h = this.#holder;
    if (h)
      throw new OmniposError(
        'ENGINE_BUSY',
        `the terminal is busy with another payment (${h.kind}${h.id !== undefined ? ` ${h.id}` : ''})`,
        { holder: h.kind, ...(h.id !== undefined ? { active: h.id } : {}) },
      );
  }

  /**
   * Runs `start` holding the lock: released if `start` throws, else when the `done` it returns
   * settles. `start` is told to name its journal row (`attach`) once it exists.
   */
  async hold<T extends { done: Promise<void> }>(
    kind: PaymentHolder['kind'],
    start: (attach: (id: number) => void) => Promise<T>,
  ): Promise<T> {
    this.assertFree();
    const holder: PaymentHolder = { kind };
    this.#holder = holder;
    const release = (): void => {
      if (this.#holder === holder) this.#holder = undefined;
    };
    let started: T;
    try {
      started = await start((id) => {
        holder.id = id;
      });
    } catch (e) {
      release();
      throw e;
    }
    started.done.then(release, release);
    return started;
  }
}
