import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PortInfo } from './transport.js';

/** Where Linux lists the USB devices it sees (one folder a device, its ids in small text files). */
export const SYSFS_USB_DEVICES = '/sys/bus/usb/devices';

const attribute = (dir: string, name: string): string | undefined => {
  try {
    return readFileSync(path.join(dir, name), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
};

/**
 * The USB devices the kernel lists under `root` (sysfs; no native module, nothing opened): each folder
 * with an `idVendor` is a device (an interface's folder, `1-1:1.0`, has none). A device whose driver gives it
 * no serial port still shows here: a pinpad in a USB mode omnipos does not open.
 */
export function listUsbDevices(root: string = SYSFS_USB_DEVICES): PortInfo[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.sort().flatMap((name) => {
    const dir = path.join(root, name);
    const vendor = attribute(dir, 'idVendor');
    const product = attribute(dir, 'idProduct');
    if (!vendor || !/^[0-9a-f]{4}$/i.test(vendor) || !product || !/^[0-9a-f]{4}$/i.test(product)) return [];
    const manufacturer = attribute(dir, 'manufacturer');
    const serialNumber = attribute(dir, 'serial');
    return [
      {
        kind: 'usb' as const,
        path: dir,
        vendorId: parseInt(vendor, 16),
        productId: parseInt(product, 16),
        ...(manufacturer ? { manufacturer } : {}),
        ...(serialNumber ? { serialNumber } : {}),
      },
    ];
  });
}
