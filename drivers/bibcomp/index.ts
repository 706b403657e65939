export { BibcompTransport } from './transport.js';
export { loadBibcomp, cText, PPCOMP, type BibcompCalls } from './library.js';
export { bibcompLibrary } from './registry.js';
export { type Wedge } from './gate.js';
export { BIBCOMP_REACH, CARD_SALE_REFUSAL, TYPED_PAN_REFUSAL } from './reach.js';
export { BibcompCardGate } from './card-gate.js';

import type { Transport } from '../transport/index.js';
import type { BibcompCalls } from './library.js';
import type { Wedge } from './gate.js';
import type { DriverLogger } from '../pinpad/index.js';
import { BibcompTransport } from './transport.js';

/** The bridge on a loaded library: the driver's transport over its generic command. */
export function bibcompTransportFor(
  lib: { calls: BibcompCalls; wedged: Wedge },
  o: { port: string; callTimeoutMs?: number; log?: DriverLogger },
): Transport {
  return new BibcompTransport({
    calls: lib.calls,
    wedged: lib.wedged,
    port: o.port,
    ...(o.callTimeoutMs !== undefined ? { callTimeoutMs: o.callTimeoutMs } : {}),
    ...(o.log ? { log: o.log } : {}),
  });
}
export { findBibcompLibraries, LIBRARY_DIRS } from './discover.js';
