import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A device folder as Linux's sysfs writes it: each attribute a file holding its value and a newline. */
export interface SysfsUsbDevice {
  name: string;
  idVendor?: string;
  idProduct?: string;
  manufacturer?: string;
  serial?: string;
}

/** A stand-in for /sys/bus/usb/devices (the one part that cannot run here): folders of small text files. */
export function plantSysfsUsb(devices: readonly SysfsUsbDevice[]): string {
  const root = mkdtempSync(path.join(tmpdir(), 'omnipos-sysfs-usb-'));
  for (const { name, ...attributes } of devices) {
    const dir = path.join(root, name);
    mkdirSync(dir);
    for (const [file, value] of Object.entries(attributes)) writeFileSync(path.join(dir, file), `${value}\n`);
  }
  return root;
}
