export { BibcompTransport, type BibcompTransportOptions } from './transport.js';
export { ClassicBibcompTransport, type ClassicBibcompTransportOptions } from './classic-transport.js';
export {
  loadBibcomp,
  PPCOMP,
  REQUIRED_FUNCTIONS,
  CLASSIC_FUNCTIONS,
  MAX_PKTDATA,
  type BibcompCalls,
  type GenericPoll,
  type ClassicAnswer,
  type ClassicFunction,
} from './library.js';
export { bibcompLibrary } from './registry.js';
export { LibraryGate, type Wedge } from './gate.js';

import type { Transport } from '../transport/index.js';
import { ClassicBibcompTransport } from './classic-transport.js';
import type { BibcompCalls } from './library.js';
import type { Wedge } from './gate.js';
import type { DriverLogger } from '../pinpad/index.js';
import { BibcompTransport } from './transport.js';

/**
 * The bridge for what the library offers: the current commands whole through its binary-safe
 * generic command when it has one; otherwise the classic commands through its classic functions.
 */
export function bibcompTransportFor(
  lib: { calls: BibcompCalls; wedged: Wedge },
  o: { port: string; callTimeoutMs?: number; log?: DriverLogger },
): Transport {
  const common = {
    calls: lib.calls,
    wedged: lib.wedged,
    port: o.port,
    ...(o.callTimeoutMs !== undefined ? { callTimeoutMs: o.callTimeoutMs } : {}),
    ...(o.log ? { log: o.log } : {}),
  };
  return lib.calls.generic ? new BibcompTransport(common) : new ClassicBibcompTransport(common);
}
export { findBibcompLibraries, LIBRARY_DIRS } from './discover.js';
