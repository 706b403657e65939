/**
 * Unplug at every step of a command, over real TCP: the virtual pinpad drops the connection before
 * the ACK, while the command runs, or half-way through its answer, and takes a new connection once
 * plugged back.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../drivers/pinpad/index.js';
import { useVirtualPinpad } from '../../helpers/virtual-pinpad.js';

const DSP = encodeFrame(Uint8Array.from(Buffer.from(`DSP032${'UNPLUG'.padEnd(32)}`, 'latin1')));

/** Connects, sends `packet`, collects every byte until the pinpad closes the connection (or `ms`). */
async function exchange(port: number, packet: Uint8Array, ms = 5000): Promise<{ bytes: number[]; closed: boolean }> {
  const s = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
  const bytes: number[] = [];
  s.on('data', (d: Buffer) => bytes.push(...d));
  s.on('error', () => undefined);
  const closed = new Promise<boolean>((r) => s.once('close', () => r(true)));
  s.write(packet);
  const result = await Promise.race([closed, new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
  s.destroy();
  return { bytes, closed: result };
}

async function connectable(port: number, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await exchange(port, DSP, 1500);
    if (!r.closed && r.bytes[0] === 0x06) return;
    if (Date.now() > end) throw new Error('the pinpad did not come back');
    await new Promise((res) => setTimeout(res, 100));
  }
}

describe('unplug at every step of a command, over TCP', () => {
  const sim = useVirtualPinpad({ typingMs: null });

  for (const when of ['before-ack', 'mid-command', 'mid-answer'] as const) {
    it(`${when}: the connection drops at that step, and a new one works after the replug`, async () => {
      sim.inject({ kind: 'disconnect', when, command: 'DSP', replugAfterMs: 300 });
      const r = await exchange(sim.port, DSP);
      expect(r.closed).toBe(true);
      if (when === 'before-ack') expect(r.bytes).toEqual([]);
      if (when === 'mid-command') expect(r.bytes).toEqual([0x06]);
      if (when === 'mid-answer') {
        expect(r.bytes[0]).toBe(0x06);
        expect(r.bytes.length).toBeGreaterThan(1);
        expect(r.bytes).not.toContain(0x17); // the answer never reached its ETB
      }
      await connectable(sim.port);
    }, 30_000);
  }
});
