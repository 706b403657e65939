import type { DriverLogger } from '../pinpad/index.js';

/** Set once a call never returned: the library holds a worker thread and is not called again in this process. */
export interface Wedge {
  value: boolean;
  call?: string;
}

/**
 * One library call at a time (a vendor library need not be thread-safe), each with a deadline: a
 * call that has not returned after `callTimeoutMs` wedges the library (`wedge.value`), and every
 * later call fails at once instead of holding another worker thread of the pool.
 */
export class LibraryGate {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly callTimeoutMs: number,
    private readonly log: DriverLogger,
    readonly wedge: Wedge,
  ) {}

  call<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      if (this.wedge.value) throw new Error(`the library is wedged in ${this.wedge.call ?? 'a call'}`);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          this.wedge.value = true;
          this.wedge.call = name;
          this.log.warn(
            { call: name, ms: this.callTimeoutMs },
            'bibcomp library call did not return; the bridge stops calling it',
          );
          reject(new Error(`${name} did not return within ${this.callTimeoutMs} ms`));
        }, this.callTimeoutMs);
      });
      try {
        return await Promise.race([fn(), deadline]);
      } finally {
        clearTimeout(timer);
      }
    };
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => undefined);
    return p;
  }
}
