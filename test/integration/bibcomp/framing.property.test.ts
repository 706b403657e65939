/**
 * The test library's framing (C, written from §2.2.1/§7.2) against the driver's (TypeScript): two
 * independent implementations of the same packet format must agree on any PKTDATA, DC3 escapes of
 * 13h/16h/17h and CRC included. A peer on loopback decodes what the library sends with the driver's
 * FrameDecoder, ACKs it and answers the same bytes framed by the driver's encodeFrame; the library
 * must hand back exactly those bytes. Through PPCOMP.H's generic command PKTDATA is NUL-terminated
 * text, so any byte but 00h. fast-check, 1000 runs.
 */
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBibcomp, PPCOMP, type BibcompCalls } from '../../../drivers/bibcomp/index.js';
import { FrameDecoder, encodeFrame } from '../../../drivers/pinpad/index.js';
import { buildBibcomp } from '../../helpers/bibcomp-build.js';

let calls: BibcompCalls;
let server: net.Server;
const seen: Uint8Array[] = [];

beforeAll(async () => {
  calls = loadBibcomp(buildBibcomp());
  server = net.createServer((socket) => {
    socket.setNoDelay(true);
    const decoder = new FrameDecoder();
    socket.on('data', (chunk: Buffer) => {
      for (const e of decoder.push(chunk)) {
        if (e.type === 'frame') {
          seen.push(e.data);
          socket.write(Buffer.concat([Buffer.of(0x06), Buffer.from(encodeFrame(e.data))]));
        } else if (e.type === 'control' && e.byte === 0x18) socket.write(Buffer.of(0x04));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  expect(await calls.open(`127.0.0.1:${port}`)).toBe(PPCOMP.OK);
}, 60_000);

afterAll(async () => {
  await calls.close('');
  await new Promise((r) => server.close(r));
});

describe('the test library frames and unframes any packet as the driver does', () => {
  it('round-trips arbitrary text PKTDATA (control bytes, DC3, Latin-1) through PP_StartGenericCmd/PP_GenericCmd', async () => {
    const control = fc.constantFrom(0x13, 0x16, 0x17, 0x06, 0x15, 0x04, 0x18);
    const byte = fc.oneof(fc.integer({ min: 1, max: 255 }), control);
    await fc.assert(
      fc.asyncProperty(fc.array(byte, { minLength: 1, maxLength: 300 }), async (bytes) => {
        const data = Uint8Array.from(bytes);
        seen.length = 0;
        expect(await calls.startGeneric(data)).toBe(PPCOMP.OK);
        let r = await calls.pollGeneric();
        while (r.code === PPCOMP.PROCESSING) r = await calls.pollGeneric();
        // an answer that starts "NTM" is a notification for the library (not an arbitrary packet): skip that case
        if (r.code === PPCOMP.NOTIFY) return;
        expect(r.code).toBe(PPCOMP.OK);
        expect(Buffer.from(seen[0] ?? [])).toEqual(Buffer.from(data));
        expect(Buffer.from(r.data ?? [])).toEqual(Buffer.from(data));
      }),
      { numRuns: 1000 },
    );
  }, 120_000);
});
