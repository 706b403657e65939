/**
 * The pinpad driver's own time per command against the time the same bytes take on the wire at
 * 19200 bps (8N1: 10 bits per byte), the physical limit of ABECS §2.1. The driver runs its real
 * link (framer, link machine, queue, codecs) against the virtual pinpad's engine joined by an
 * in-memory pipe, so the time measured is software only; the wire time is computed from the bytes
 * the link counted. Peer: the bare codec (encode packet + decode response, no link), the floor.
 */
import { bench, describe } from 'vitest';
import { DSP, GIX, Pinpad, control, decodeResponse, encodeFrame, FrameDecoder } from '../../drivers/pinpad/index.js';
import { ChunkQueue } from '../../drivers/transport/chunk-queue.js';
import type { Transport } from '../../drivers/transport/transport.js';
import { SimEngine } from '../../src/sim/pinpad/engine.js';
import { handlersFor } from '../../src/sim/pinpad/handlers/index.js';
import { profile } from '../../src/sim/pinpad/profile.js';

/** A transport whose other end is a SimEngine in the same process. */
class MemoryTransport implements Transport {
  readonly description = 'memory:sim';
  isOpen = false;
  private queue = new ChunkQueue();
  readonly engine = new SimEngine({
    profile: profile(),
    handlers: handlersFor(false),
    output: (b) => this.queue.push(Uint8Array.from(b)),
  });
  open(): Promise<void> {
    this.isOpen = true;
    return Promise.resolve();
  }
  read(): Promise<Uint8Array | null> {
    return this.queue.read();
  }
  write(bytes: Uint8Array): Promise<void> {
    const copy = Uint8Array.from(bytes);
    setImmediate(() => this.engine.receive(copy));
    return Promise.resolve();
  }
  flush(): Promise<void> {
    this.queue.clear();
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.isOpen = false;
    this.queue.end(null);
    return Promise.resolve();
  }
}

const pinpad = new Pinpad({
  transport: () => new MemoryTransport(),
  probeIntervalMs: 0,
  reconnect: { enabled: false },
});
await pinpad.connect();

const WIRE_S_PER_BYTE = control.WIRE_BITS_PER_BYTE / control.WIRE_BPS;

async function measure(name: string, run: () => Promise<unknown>, n: number): Promise<void> {
  for (let i = 0; i < 20; i++) await run();
  const c0 = { ...pinpad.counters! };
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await run();
  const driverS = Number(process.hrtime.bigint() - t0) / 1e9 / n;
  const bytes = (pinpad.counters!.bytesOut - c0.bytesOut + pinpad.counters!.bytesIn - c0.bytesIn) / n;
  const wireS = bytes * WIRE_S_PER_BYTE;
  console.log(
    `[pinpad-link] ${name}: ${bytes.toFixed(0)} bytes on the wire per command = ${(wireS * 1000).toFixed(2)} ms at 19200 bps; ` +
      `driver ${(driverS * 1000).toFixed(3)} ms per command; driver/wire = ${(driverS / wireS).toFixed(4)} (${(wireS / driverS).toFixed(0)}x faster than the wire)`,
  );
}

await measure('DSP (38-byte command, 6-byte answer)', () => pinpad.display(['PAGAMENTO', 'APROVADO']), 2000);
await measure('GIX all (†) data', () => pinpad.gix(), 1000);

const dspAnswer = encodeFrame(Buffer.from('DSP000'));

describe('pinpad link: one DSP command', () => {
  bench('omnipos driver (link machine + framer + codec + sim engine, in-memory pipe)', async () => {
    await pinpad.display(['PAGAMENTO', 'APROVADO']);
  });
  bench('peer floor: bare codec (encode packet, decode answer, no link)', () => {
    encodeFrame(DSP.encode(['PAGAMENTO', 'APROVADO']));
    const [f] = new FrameDecoder().push(dspAnswer);
    if (f?.type === 'frame') decodeResponse(f.data);
  });
});

describe('pinpad link: GIX', () => {
  bench('omnipos driver GIX (all (†) data, ~600-byte answer)', async () => {
    await pinpad.gix();
  });
  bench('peer floor: bare codec GIX request', () => {
    encodeFrame(GIX.encode(undefined));
  });
});
