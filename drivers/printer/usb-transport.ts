/// <reference types="w3c-web-usb" />
// The globals the `usb` package's own types name (USB, USBDevice): without them its `webusb` would be `any`.
import { TransportError, type Transport } from '../transport/index.js';

/** The few WebUSB calls this transport makes (the `usb` package's `webusb` implements them). */
interface UsbDeviceLike {
  open(): Promise<void>;
  close(): Promise<void>;
  selectConfiguration(n: number): Promise<void>;
  claimInterface(n: number): Promise<void>;
  releaseInterface(n: number): Promise<void>;
  transferOut(endpoint: number, data: Uint8Array): Promise<{ status: string }>;
  transferIn(endpoint: number, length: number): Promise<{ status: string; data?: DataView }>;
  readonly configuration: {
    interfaces: {
      interfaceNumber: number;
      alternate: {
        interfaceClass: number;
        endpoints: { endpointNumber: number; direction: 'in' | 'out'; type: string }[];
      };
    }[];
  } | null;
}

export interface UsbPrinterOptions {
  vendorId: number;
  productId: number;
  /** Looks the device up; defaults to the `usb` package's webusb (loaded only when used). */
  find?: (vendorId: number, productId: number) => Promise<UsbDeviceLike | undefined>;
}

/** What this file uses of the `usb` package: its webusb's devices. The module is checked against it (its own types). */
interface UsbModule {
  webusb: { getDevices(): Promise<(UsbDeviceLike & { vendorId: number; productId: number })[]> };
}

async function defaultFind(vendorId: number, productId: number): Promise<UsbDeviceLike | undefined> {
  const mod: UsbModule = await import('usb');
  const devices = await mod.webusb.getDevices();
  return devices.find((d) => d.vendorId === vendorId && d.productId === productId);
}

/**
 * A USB printer-class (7) device through the `usb` package: bulk OUT for commands, bulk IN for
 * status bytes. Kept thin on purpose — it cannot run in CI (no device); the driver above it is
 * tested over TCP against the virtual printer, and this file only moves bytes.
 */
export class UsbPrinterTransport implements Transport {
  readonly description: string;
  private device: UsbDeviceLike | undefined;
  private iface = 0;
  private epIn = 0;
  private epOut = 0;
  private closing = false;

  constructor(private readonly opts: UsbPrinterOptions) {
    this.description = `usb:${opts.vendorId.toString(16).padStart(4, '0')}:${opts.productId.toString(16).padStart(4, '0')}`;
  }

  get isOpen(): boolean {
    return this.device !== undefined && !this.closing;
  }

  async open(): Promise<void> {
    const d = await (this.opts.find ?? defaultFind)(this.opts.vendorId, this.opts.productId).catch((e: unknown) => {
      throw new TransportError(
        'TRANSPORT_OPEN_FAILED',
        `${this.description}: ${(e as Error).message}`,
        {},
        { cause: e },
      );
    });
    if (!d) throw new TransportError('TRANSPORT_OPEN_FAILED', `${this.description}: no such device`, {});
    try {
      await d.open();
      if (!d.configuration) await d.selectConfiguration(1);
      const ifc =
        d.configuration?.interfaces.find((i) => i.alternate.interfaceClass === 7) ?? d.configuration?.interfaces[0];
      if (!ifc) throw new Error('no interface');
      this.iface = ifc.interfaceNumber;
      await d.claimInterface(this.iface);
      const bulk = ifc.alternate.endpoints.filter((e) => e.type === 'bulk');
      const out = bulk.find((e) => e.direction === 'out');
      const inn = bulk.find((e) => e.direction === 'in');
      if (!out) throw new Error('no bulk OUT endpoint');
      this.epOut = out.endpointNumber;
      this.epIn = inn?.endpointNumber ?? 0;
    } catch (e) {
      throw new TransportError(
        'TRANSPORT_OPEN_FAILED',
        `${this.description}: ${(e as Error).message}`,
        {},
        { cause: e },
      );
    }
    this.device = d;
    this.closing = false;
  }

  async read(): Promise<Uint8Array | null> {
    for (;;) {
      const d = this.device;
      if (!d || this.closing) return null;
      if (this.epIn === 0) return new Promise(() => undefined);
      try {
        const r = await d.transferIn(this.epIn, 64);
        if (this.closing) return null;
        if (r.data && r.data.byteLength > 0)
          return new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength).slice();
      } catch (e) {
        if (this.closing) return null;
        throw new TransportError(
          'TRANSPORT_DISCONNECTED',
          `${this.description}: ${(e as Error).message}`,
          {},
          { cause: e },
        );
      }
    }
  }

  async write(bytes: Uint8Array): Promise<void> {
    const d = this.device;
    if (!d || this.closing) throw new TransportError('TRANSPORT_DISCONNECTED', `${this.description}: not open`);
    try {
      const r = await d.transferOut(this.epOut, bytes);
      if (r.status !== 'ok') throw new Error(`transfer ${r.status}`);
    } catch (e) {
      throw new TransportError(
        'TRANSPORT_DISCONNECTED',
        `${this.description}: ${(e as Error).message}`,
        {},
        { cause: e },
      );
    }
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.closing = true;
    const d = this.device;
    this.device = undefined;
    if (!d) return;
    await d.releaseInterface(this.iface).catch(() => undefined);
    await d.close().catch(() => undefined);
  }
}
