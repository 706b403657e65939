import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../../src/core/deadline.js';

// The collector, called by hand: on Node 20 AbortSignal.any([s, AbortSignal.timeout(ms)]) loses the
// timeout's signal to it and never aborts (the GCD deadline test hung on Node 20 with it, passed alone).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const collectFor = async (ms: number): Promise<void> => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('withDeadline', () => {
  it('aborts at the deadline with a TimeoutError even when the collector runs meanwhile', async () => {
    const joined = withDeadline(new AbortController().signal, 200);
    const seen: string[] = [];
    joined.addEventListener('abort', () => seen.push((joined.reason as DOMException).name));
    await collectFor(1500);
    expect(joined.aborted).toBe(true);
    expect(seen).toEqual(['TimeoutError']);
  });

  it('aborts with the caller’s reason when the caller aborts first, and stands alone without a signal', async () => {
    const caller = new AbortController();
    const joined = withDeadline(caller.signal, 60_000);
    caller.abort(new Error('stop'));
    expect(joined.aborted).toBe(true);
    expect((joined.reason as Error).message).toBe('stop');
    const alone = withDeadline(undefined, 100);
    await collectFor(600);
    expect(alone.aborted).toBe(true);
  });
});
