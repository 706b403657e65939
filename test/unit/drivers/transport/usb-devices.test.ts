import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listUsbDevices } from '../../../../drivers/transport/usb-devices.js';
import { plantSysfsUsb } from '../../../helpers/sysfs-usb.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('listUsbDevices (sysfs)', () => {
  it('reads each device folder, leaves interfaces and malformed ids out, and opens nothing', () => {
    root = plantSysfsUsb([
      { name: '1-1', idVendor: '1753', idProduct: 'c902', manufacturer: 'GERTEC', serial: 'PP0001' },
      { name: '1-1:1.0' },
      { name: 'usb1', idVendor: '1d6b', idProduct: '0002' },
      { name: '2-3', idVendor: 'zz', idProduct: '0001' },
    ]);
    expect(listUsbDevices(root)).toEqual([
      {
        kind: 'usb',
        path: path.join(root, '1-1'),
        vendorId: 0x1753,
        productId: 0xc902,
        manufacturer: 'GERTEC',
        serialNumber: 'PP0001',
      },
      { kind: 'usb', path: path.join(root, 'usb1'), vendorId: 0x1d6b, productId: 0x0002 },
    ]);
  });

  it('answers nothing, without throwing, where there is no sysfs', () => {
    expect(listUsbDevices('/nonexistent/sys/bus/usb/devices')).toEqual([]);
  });

  it('this machine: every device it lists has four-digit ids (the real sysfs, when there is one)', () => {
    for (const d of listUsbDevices()) {
      expect(d.vendorId).toBeLessThanOrEqual(0xffff);
      expect(d.productId).toBeLessThanOrEqual(0xffff);
    }
  });
});
