import net from 'node:net';
import { FrameDecoder, type LinkEvent } from '../../../drivers/pinpad/index.js';

/** A raw terminal over real TCP: writes bytes as given, reads what the pinpad sends (decoded by the driver's decoder, an independent reader). */
export async function rawTerminal(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.setNoDelay(true);
  const decoder = new FrameDecoder();
  const events: { at: number; e: LinkEvent }[] = [];
  socket.on('data', (d: Buffer) => {
    for (const e of decoder.push(d)) if (e.type !== 'discarded') events.push({ at: Date.now(), e });
  });
  return {
    events,
    send(bytes: Uint8Array): number {
      socket.write(bytes);
      return Date.now();
    },
    /** Waits for the n-th event from now (generous timeout: this machine is loaded). */
    async next(from: number, timeoutMs = 30_000): Promise<{ at: number; e: LinkEvent }> {
      const end = Date.now() + timeoutMs;
      while (events.length <= from) {
        if (Date.now() > end)
          throw new Error(`no event #${from} in ${timeoutMs} ms (got ${JSON.stringify(events.map((x) => x.e.type))})`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return events[from]!;
    },
    close(): void {
      socket.destroy();
    },
  };
}

export const text = (e: LinkEvent): string =>
  e.type === 'frame'
    ? Buffer.from(e.data).toString('latin1')
    : `<${e.type}${e.type === 'control' ? ` ${e.byte}` : ''}>`;
