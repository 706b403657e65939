import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EscPosEncoder, EscPosPrinter } from '../../../drivers/printer/index.js';
import { SerialTransport } from '../../../drivers/transport/index.js';
import { serveVirtualPrinter, VirtualPrinter } from '../../../src/sim/printer/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const HAS_SOCAT = spawnSync('socat', ['-V'], { stdio: 'ignore' }).status === 0;
const tempDir = useTempDirs();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function waitFor(p: string, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!existsSync(p)) {
    if (Date.now() > until) throw new Error(`socat made no ${p}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The serial path: the virtual printer behind a real pseudo-terminal (socat links a pty to its
 * TCP port), the driver on SerialTransport (serialport) at the pty, as on a serial receipt printer.
 */
describe.skipIf(!HAS_SOCAT)('EscPosPrinter over a serial port (socat pty) against the virtual printer', () => {
  it('prints a receipt and reads status through the pty; paper out mid-receipt is uncertain', async () => {
    const sim = new VirtualPrinter({ lineMs: 2 });
    const server = await serveVirtualPrinter(sim);
    const dir = tempDir('omnipos-printer-');
    const link = path.join(dir, 'ttyPRINTER');
    const socat: ChildProcess = spawn('socat', [`pty,link=${link},raw,echo=0`, `tcp:127.0.0.1:${server.port}`], {
      stdio: 'ignore',
    });
    cleanups.push(async () => {
      socat.kill('SIGTERM');
      await server.close();
    });
    await waitFor(link);
    const printer = new EscPosPrinter({
      transport: new SerialTransport({ path: link, baudRate: 9600 }),
      model: sim.model,
      pollMs: 20,
      replyTimeoutMs: 500,
    });
    await printer.open();
    cleanups.push(() => printer.close());
    expect(await printer.status()).toMatchObject({ online: true, paperOut: false });
    const page = new EscPosEncoder(sim.model).initialize().line('Via serial: Crédito à vista').cut().encode();
    expect(await printer.print(page)).toMatchObject({ outcome: 'printed' });
    expect(sim.lastReceipt!.lines[0]).toBe('Via serial: Crédito à vista');
    sim.loadPaper(2);
    const long = new EscPosEncoder(sim.model).initialize();
    for (let i = 0; i < 6; i++) long.line(`linha ${i}`);
    expect(await printer.print(long.cut().encode())).toMatchObject({ outcome: 'uncertain', reason: 'paper-out' });
  });
});
