import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as SerialportModule from 'serialport';
import { KNOWN_PINPAD_USB_IDS } from '../../tables/pinpad/usb-ids.js';
import type { PortInfo } from './transport.js';

/** serialport (a native module) is loaded when ports are listed, not when omnipos starts (fast start). */
const load = createRequire(import.meta.url);

/** Where udev keeps stable names for serial devices. */
export const UDEV_SERIAL_DIRS = ['/dev/serial/by-id', '/dev/serial/by-path'];

async function udevAliases(dirs: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const dir of dirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const n of names) {
      const link = path.join(dir, n);
      const target = await realpath(link).catch(() => undefined);
      if (target) out.set(target, [...(out.get(target) ?? []), link]);
    }
  }
  return out;
}

/** Serial ports the OS lists (no port is opened), each with its stable udev names. */
export async function listSerialPorts(udevDirs: readonly string[] = UDEV_SERIAL_DIRS): Promise<PortInfo[]> {
  const ports = await (load('serialport') as typeof SerialportModule).SerialPort.list().catch(() => []);
  const aliases = await udevAliases(udevDirs);
  return ports.map((p) => {
    const real = p.path;
    const vendorId = p.vendorId ? parseInt(p.vendorId, 16) : undefined;
    const productId = p.productId ? parseInt(p.productId, 16) : undefined;
    return {
      kind: 'serial' as const,
      path: real,
      ...(vendorId !== undefined ? { vendorId } : {}),
      ...(productId !== undefined ? { productId } : {}),
      ...(p.manufacturer ? { manufacturer: p.manufacturer } : {}),
      ...(p.serialNumber ? { serialNumber: p.serialNumber } : {}),
      aliases: aliases.get(real) ?? [],
    };
  });
}

export interface UsbId {
  vendorId: number;
  productId?: number;
}

/** The known pinpad the port's USB ids name, if any. */
export function knownPinpad(port: PortInfo, extra: readonly UsbId[] = []): string | undefined {
  if (port.vendorId === undefined) return undefined;
  const match = (id: UsbId) =>
    id.vendorId === port.vendorId && (id.productId === undefined || id.productId === port.productId);
  const known = KNOWN_PINPAD_USB_IDS.filter(match).sort(
    (a, b) => (b.productId !== undefined ? 1 : 0) - (a.productId !== undefined ? 1 : 0),
  )[0];
  if (known) return known.name;
  return extra.some(match) ? 'configured USB id' : undefined;
}

export interface DiscoveryOptions {
  /** A configured device path (or udev name): taken as is, whatever it is. */
  path?: string;
  /** A udev name pattern (e.g. "Gertec"), matched against /dev/serial/by-id names. */
  udevName?: string;
  /** Extra vendor/product ids for this site. */
  usbIds?: readonly UsbId[];
}

/** A port that may be the pinpad: why it was taken (for people), and its USB ids when they are why (for code). */
export interface DiscoveredPort {
  path: string;
  why: string;
  usb?: UsbId;
}

/**
 * Picks the pinpad's serial port without sending a byte anywhere: the configured path if given;
 * else a port whose udev name contains `udevName`; else the ports whose USB ids are known pinpads.
 * A port matching none (a fiscal printer, a scale) is never returned.
 */
export async function discoverPinpadPorts(
  opts: DiscoveryOptions,
  ports?: readonly PortInfo[],
): Promise<DiscoveredPort[]> {
  if (opts.path) return [{ path: opts.path, why: 'configured path' }];
  const list = ports ?? (await listSerialPorts());
  if (opts.udevName) {
    const needle = opts.udevName.toLowerCase();
    return list.flatMap((p) =>
      (p.aliases ?? [])
        .filter((a) => path.basename(a).toLowerCase().includes(needle))
        .map((a) => ({ path: a, why: `udev name ${path.basename(a)}` })),
    );
  }
  return list.flatMap((p) => {
    const name = knownPinpad(p, opts.usbIds);
    if (!name) return [];
    const stable = (p.aliases ?? []).find((a) => a.startsWith('/dev/serial/by-id/'));
    return [
      {
        path: stable ?? p.path,
        why: `USB ${p.vendorId!.toString(16).padStart(4, '0')}:${(p.productId ?? 0).toString(16).padStart(4, '0')} ${name}`,
        usb: { vendorId: p.vendorId!, productId: p.productId ?? 0 },
      },
    ];
  });
}
