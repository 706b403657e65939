import { describe, expect, it } from 'vitest';
import type { SimState } from '../../../../../src/sim/pinpad/engine.js';
import { KEPT_TRACE, SimSecureLayer } from '../../../../../src/sim/pinpad/secure/layer.js';

// Issue 23, memory over months: the virtual pinpad's secure layer traced every command for good
// (five a sale); a heap-snapshot diff of the soak found 6,000 of its entries retained over 1,200
// sales. It keeps the newest KEPT_TRACE.
describe("the virtual pinpad's secure-layer trace", () => {
  it(`keeps the newest ${KEPT_TRACE} commands, not every one since the start`, () => {
    const layer = new SimSecureLayer({ session: {} } as unknown as SimState);
    const clear = (id: string): Uint8Array => Uint8Array.from(Buffer.from(`${id}000`, 'latin1'));
    for (let i = 0; i < KEPT_TRACE + 500; i++) layer.open(clear(i % 2 ? 'GIX' : 'CHK'));
    layer.open(clear('CLO'));
    expect(layer.trace).toHaveLength(KEPT_TRACE);
    expect(layer.trace.at(-1)).toEqual({ id: 'CLO', sealed: false });
  });
});
