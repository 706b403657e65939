/**
 * Driver overhead per command through the BibComp bridge beside the direct ABECS driver, on the same
 * virtual pinpad (this process, fast timing) over TCP loopback: the plain Pinpad driver runs DSP then
 * GIN 00 (both classic, clear, so every path carries the same bytes) on TcpTransport and on
 * BibcompTransport (the test library's PP_StartGenericCmd/PP_GenericCmd), the bridge at its daemon
 * default (poll every 20 ms) and with 1 ms polls (the bridge's own cost). vitest prints the ratios
 * ("× faster than"). The test library is built with cc (test/helpers/bibcomp-build.ts).
 *
 * Run: npx vitest bench --run test/bench/bibcomp-bridge.bench.ts
 */
import { afterAll, bench, describe } from 'vitest';
import { BibcompTransport, loadBibcomp } from '../../drivers/bibcomp/index.js';
import { Pinpad } from '../../drivers/pinpad/index.js';
import type { Transport } from '../../drivers/transport/transport.js';
import { TcpTransport } from '../../drivers/transport/tcp.js';
import { VirtualPinpad } from '../../src/sim/pinpad/server.js';
import { buildBibcomp } from '../helpers/bibcomp-build.js';

const sim = new VirtualPinpad();
await sim.start();
const port = `127.0.0.1:${sim.port}`;
const calls = loadBibcomp(buildBibcomp());

async function driver(transport: () => Transport): Promise<Pinpad> {
  const p = new Pinpad({ transport, probeIntervalMs: 0, reconnect: { enabled: false } });
  await p.connect();
  return p;
}

// One library state per process: each bridge runs while the others are closed.
const PATHS: [string, () => Transport][] = [
  ['direct ABECS driver (TcpTransport)', () => new TcpTransport({ host: '127.0.0.1', port: sim.port })],
  ['bridge, generic command (daemon default)', () => new BibcompTransport({ calls, port })],
  ['bridge, generic command (1 ms polls)', () => new BibcompTransport({ calls, port, pollMs: 1 })],
];

let current: Pinpad | undefined;
afterAll(async () => {
  await current?.close();
  await sim.stop();
});

describe('one DSP + one GIN 00, per path', () => {
  for (const [name, transport] of PATHS) {
    bench(
      name,
      async () => {
        await current!.display(['BENCH', '']);
        await current!.gin(0);
      },
      {
        time: 2000,
        warmupIterations: 3,
        setup: async () => {
          await current?.close();
          current = await driver(transport);
        },
      },
    );
  }
});
