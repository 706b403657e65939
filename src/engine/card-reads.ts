import { OmniposError } from '../core/index.js';

/** Who cancels a payment. */
export type CancelBy = 'ecr' | 'customer' | 'operator';

/**
 * The card reads in progress of one engine (card sales, card voids), by journal id: each read
 * can be ended by a cancel, which is remembered for the flow to record as that cancel (not as a
 * failed card). Not a busy check: the terminal's payment lock (payment-lock.ts) keeps it to one
 * payment at a time.
 */
export class CardReads {
  readonly #reads = new Map<number, { abort: AbortController; by?: CancelBy }>();

  /** A read of payment `id` begins: the signal that ends it. */
  open(id: number): AbortSignal {
    const abort = new AbortController();
    this.#reads.set(id, { abort });
    return abort.signal;
  }

  /** Ends the read of payment `id` as cancelled by `by`; false when none is in progress. */
  cancel(id: number, by: CancelBy): boolean {
    const read = this.#reads.get(id);
    if (!read) return false;
    read.by = by;
    read.abort.abort(new OmniposError('ENGINE_CANCELLED', `cancelled by ${by}`));
    return true;
  }

  /** Who cancelled the read of payment `id`, if anyone did. */
  cancelledBy(id: number): CancelBy | undefined {
    return this.#reads.get(id)?.by;
  }

  /** The flow of payment `id` is over. */
  close(id: number): void {
    this.#reads.delete(id);
  }

  /** The daemon stops: every read in progress ends. */
  stopAll(): void {
    for (const read of this.#reads.values()) read.abort.abort(new OmniposError('ENGINE_CANCELLED', 'stopping'));
  }
}
