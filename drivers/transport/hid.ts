import { createRequire } from 'node:module';
import type HID from 'node-hid';
import type { PortInfo } from './transport.js';

/** node-hid (a native module) is loaded at the first listing, not when omnipos starts (fast start). */
const load = createRequire(import.meta.url);
const nodeHid = (): typeof HID => load('node-hid') as typeof HID;

/** HID devices that could be pinpads: keyboards (usage page 1, usage 6) are left out. */
export async function listHidDevices(): Promise<PortInfo[]> {
  const devices = await nodeHid()
    .devicesAsync()
    .catch(() => [] as HID.Device[]);
  return devices
    .filter((d) => d.path && !(d.usagePage === 1 && d.usage === 6))
    .map((d) => ({
      kind: 'hid' as const,
      path: d.path!,
      vendorId: d.vendorId,
      productId: d.productId,
      ...(d.manufacturer ? { manufacturer: d.manufacturer } : {}),
      ...(d.serialNumber ? { serialNumber: d.serialNumber } : {}),
    }));
}
