import { createRequire } from 'node:module';
import type HID from 'node-hid';
import { ChunkQueue } from './chunk-queue.js';
import { TransportError, type PortInfo, type Transport } from './transport.js';

/** node-hid (a native module) is loaded at the first open or listing, not when omnipos starts (fast start). */
const load = createRequire(import.meta.url);
const nodeHid = (): typeof HID => load('node-hid') as typeof HID;

/**
 * How link bytes sit in HID reports. HID pinpads carry the ABECS byte stream in fixed-size
 * reports; the default here is the common one (report id, then a length byte, then the bytes,
 * zero padded). A model with another layout gets its own values in configuration.
 */
export interface HidOptions {
  /** hidraw path from `listHidDevices()`. */
  path: string;
  /** Report id written before each report (default 0). */
  reportId?: number;
  /** Payload bytes per report after the report id (default 64). */
  reportSize?: number;
}

/**
 * A HID-class pinpad through node-hid. Used only for the ABECS stream of a HID pinpad: never for
 * a card reader that hands tracks to the host (a keyboard-wedge reader is a keyboard, usage page 1
 * usage 6, and discovery never lists it), because card data must not reach the terminal in clear.
 */
export class HidTransport implements Transport {
  readonly description: string;
  private device: HID.HIDAsync | undefined;
  private queue = new ChunkQueue();
  private closing = false;

  constructor(private readonly opts: HidOptions) {
    this.description = `hid:${opts.path}`;
  }

  get isOpen(): boolean {
    return this.device !== undefined && !this.closing;
  }

  async open(): Promise<void> {
    this.queue = new ChunkQueue();
    this.closing = false;
    try {
      this.device = await nodeHid().HIDAsync.open(this.opts.path);
    } catch (e) {
      throw new TransportError(
        'TRANSPORT_OPEN_FAILED',
        `${this.description}: ${(e as Error).message}`,
        { path: this.opts.path },
        { cause: e },
      );
    }
    this.device.on('data', (report: Buffer) => {
      const len = Math.min(report[0] ?? 0, report.length - 1);
      if (len > 0) this.queue.push(Uint8Array.from(report.subarray(1, 1 + len)));
    });
    this.device.on('error', (e: unknown) =>
      this.queue.end(
        this.closing
          ? null
          : new TransportError('TRANSPORT_DISCONNECTED', `${this.description}: device lost`, {}, { cause: e }),
      ),
    );
  }

  read(): Promise<Uint8Array | null> {
    return this.queue.read();
  }

  async write(bytes: Uint8Array): Promise<void> {
    const d = this.device;
    if (!d || !this.isOpen) throw new TransportError('TRANSPORT_DISCONNECTED', `${this.description}: not open`);
    const size = this.opts.reportSize ?? 64;
    for (let at = 0; at < bytes.length; at += size - 1) {
      const part = bytes.subarray(at, at + size - 1);
      const report = Buffer.alloc(size + 1);
      report[0] = this.opts.reportId ?? 0;
      report[1] = part.length;
      report.set(part, 2);
      try {
        await d.write(report);
      } catch (e) {
        throw new TransportError('TRANSPORT_DISCONNECTED', `${this.description}: write failed`, {}, { cause: e });
      }
    }
  }

  flush(): Promise<void> {
    this.queue.clear();
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.closing = true;
    this.queue.end(null);
    const d = this.device;
    this.device = undefined;
    if (d) await d.close().catch(() => undefined);
  }
}

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
