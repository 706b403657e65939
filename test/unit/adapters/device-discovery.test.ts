import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { listDevicePorts, NO_SERIAL_PORT } from '../../../src/adapters/device-discovery.js';
import { listSerialPorts } from '../../../drivers/transport/index.js';
import { plantSysfsUsb } from '../../helpers/sysfs-usb.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('listDevicePorts', () => {
  it('lists a known pinpad the kernel sees on USB with no serial port, saying why it cannot be opened', async () => {
    root = plantSysfsUsb([
      { name: '1-1', idVendor: '1753', idProduct: 'c902', manufacturer: 'GERTEC' },
      { name: '1-2', idVendor: '046d', idProduct: 'c31c', manufacturer: 'Logitech' },
    ]);
    const serial = await listSerialPorts();
    const listed = await listDevicePorts(root);
    expect(listed.slice(0, serial.length).map((p) => p.path)).toEqual(serial.map((p) => p.path));
    const stranded = listed.slice(serial.length);
    // This machine's serial ports carry no Gertec ids: the pinpad is stranded; the keyboard is no pinpad.
    expect(serial.some((p) => p.vendorId === 0x1753)).toBe(false);
    expect(stranded).toEqual([
      expect.objectContaining({
        kind: 'usb',
        vendorId: 0x1753,
        productId: 0xc902,
        pinpad: 'Gertec PPC 920/930',
        unusable: NO_SERIAL_PORT,
      }),
    ]);
  });

  it('lists nothing but the serial ports when no known pinpad is on USB', async () => {
    root = plantSysfsUsb([{ name: '1-2', idVendor: '046d', idProduct: 'c31c' }]);
    expect(await listDevicePorts(root)).toEqual(
      (await listSerialPorts()).map((p) => expect.objectContaining({ path: p.path })),
    );
  });
});
