import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SecurePinpad } from '../../../drivers/pinpad/index.js';
import type { PortInfo } from '../../../drivers/transport/index.js';
import { loadPinpadKey } from '../../../src/adapters/pinpad-keys.js';
import { openPinpadTarget, UsbSerialTransport } from '../../../src/adapters/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

/**
 * A USB CDC pinpad named by its ids (`pinpad.device.kind: "usb"`), as the daemon and the CLI
 * both drive it now: the serial port with exactly those ids, found at each open, over a real
 * pseudo-terminal (the virtual pinpad behind socat). The OS's port list is the one thing given.
 */
const HAS_SOCAT = spawnSync('socat', ['-V'], { stdio: 'ignore' }).status === 0;
const tempDir = useTempDirs();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const port = (p: string, vendorId: number, productId: number): PortInfo => ({
  kind: 'serial',
  path: p,
  vendorId,
  productId,
  aliases: [],
});

describe.skipIf(!HAS_SOCAT)('a USB pinpad found by its vendor and product ids', () => {
  it('opens the port with exactly the configured ids (not another known pinpad) and speaks the secure channel over it', async () => {
    const dir = tempDir('omnipos-usb-');
    const pty = path.join(dir, 'ttyACM-virtual');
    const sim = await startVirtualPinpad({ ptyPath: pty }, cleanups);
    // An Ingenico (a known pinpad, other ids) listed first at a path that does not exist: never chosen.
    const listed = [port('/dev/nonexistent-ingenico', 0x079b, 0x0028), port(pty, 0x1753, 0xc902)];
    const target = await openPinpadTarget(
      { kind: 'usb', vendorId: '1753', productId: 'C902' },
      { listPorts: () => Promise.resolve(listed) },
    );
    expect(target.description).toBe('usb:1753:c902');
    const pinpad = new SecurePinpad({
      transport: target.transport,
      terminalKey: loadPinpadKey(path.join(dir, 'state')).key,
      probeIntervalMs: 0,
      reconnect: { enabled: false },
    });
    cleanups.push(() => pinpad.close());
    await pinpad.connect();
    const info = await pinpad.info();
    expect(info.serialNumber).toBe(sim.profile.serialNumber);
  }, 30_000);

  it('no port with those ids is TRANSPORT_OPEN_FAILED at open (the driver waits for it), never another pinpad', async () => {
    const transport = new UsbSerialTransport({
      vendorId: 0x1753,
      productId: 0xc902,
      listPorts: () => Promise.resolve([port('/dev/nonexistent-gertec', 0x1753, 0xc903)]),
    });
    await expect(transport.open()).rejects.toMatchObject({ code: 'TRANSPORT_OPEN_FAILED' });
    expect(transport.isOpen).toBe(false);
    await expect(transport.read()).resolves.toBeNull();
    await transport.close();
  });
});
