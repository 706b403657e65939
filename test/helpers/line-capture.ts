import net from 'node:net';

/** One ABECS packet seen on the line: who sent it and its PKTDATA (DC3 escapes undone). */
export interface CapturedPacket {
  readonly from: 'terminal' | 'pinpad';
  readonly data: Buffer;
}

/**
 * A real TCP hop between the terminal and a pinpad listening on loopback that keeps every byte each
 * way, as a line analyser on the cable would. The terminal connects to `port`.
 */
export interface LineCapture {
  readonly port: number;
  /** All bytes so far, each way. */
  bytes(from: 'terminal' | 'pinpad'): Buffer;
  /** The packets (SYN … ETB) so far, in the order each side sent them, from byte offsets `since`. */
  packets(since?: { terminal: number; pinpad: number }): CapturedPacket[];
  /** Where each side's byte stream is now (to read only what comes after). */
  mark(): { terminal: number; pinpad: number };
  close(): Promise<void>;
}

const SYN = 0x16;
const ETB = 0x17;
const DC3 = 0x13;

/** The PKTDATA of every whole packet in `b` (§2.2.1: SYN, data with DC3 escapes, ETB, CRC). */
function packetsIn(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = b.indexOf(SYN); i >= 0 && i < b.length; i = b.indexOf(SYN, i + 1)) {
    const end = b.indexOf(ETB, i + 1);
    if (end < 0) break;
    const data: number[] = [];
    for (let j = i + 1; j < end; j++) data.push(b[j] === DC3 && j + 1 < end ? b[++j]! - 0x20 : b[j]!);
    out.push(Buffer.from(data));
    i = end + 2;
  }
  return out;
}

export async function startLineCapture(pinpadPort: number): Promise<LineCapture> {
  const seen = { terminal: [] as Buffer[], pinpad: [] as Buffer[] };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((terminal) => {
    const pinpad = net.connect({ host: '127.0.0.1', port: pinpadPort });
    for (const s of [terminal, pinpad]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        terminal.destroy();
        pinpad.destroy();
      });
    }
    terminal.on('data', (d: Buffer) => {
      seen.terminal.push(d);
      pinpad.write(d);
    });
    pinpad.on('data', (d: Buffer) => {
      seen.pinpad.push(d);
      terminal.write(d);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const bytes = (from: 'terminal' | 'pinpad'): Buffer => Buffer.concat(seen[from]);
  return {
    port: (server.address() as net.AddressInfo).port,
    bytes,
    mark: () => ({ terminal: bytes('terminal').length, pinpad: bytes('pinpad').length }),
    packets: (since = { terminal: 0, pinpad: 0 }) => [
      ...packetsIn(bytes('terminal').subarray(since.terminal)).map((data) => ({ from: 'terminal' as const, data })),
      ...packetsIn(bytes('pinpad').subarray(since.pinpad)).map((data) => ({ from: 'pinpad' as const, data })),
    ],
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
