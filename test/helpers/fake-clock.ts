import type { Clock } from '../../src/core/clock.js';

/** A clock moved by hand; `wait` advances it instead of sleeping. */
export class FakeClock implements Clock {
  #ms: number;

  constructor(iso: string) {
    this.#ms = Date.parse(iso);
  }

  now(): Date {
    return new Date(this.#ms);
  }

  advance(ms: number): void {
    this.#ms += ms;
  }

  set(iso: string): void {
    this.#ms = Date.parse(iso);
  }

  readonly wait = (ms: number): Promise<void> => {
    this.#ms += ms;
    return Promise.resolve();
  };
}
