import { EscPosPrinter, UsbPrinterTransport } from '../../drivers/printer/index.js';
import {
  discoverPinpadPorts,
  SerialTransport,
  TcpTransport,
  TransportError,
  type PortInfo,
  type Transport,
} from '../../drivers/transport/index.js';
import { DEFAULT_PRINTER_MODEL_ID, findPrinterModel, type PrinterModel } from '../../tables/printers/index.js';
import { bibcompTransport } from './pinpad-device.js';
import type { ConfigValues } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
// The virtual devices load only when the configuration names one (fast start: a terminal with a
// real pinpad and printer never loads the simulators; test/unit/main.lazy.test.ts).
import type { ControlPort, VirtualPinpad, VirtualPrinter } from '../sim/index.js';

/**
 * The one place a pinpad or a printer is built from its configuration, for the daemon and every
 * CLI command alike: what `config check` accepts (the schema's kinds), the daemon runs and the
 * CLI drives, and a kind added to the schema without a case here does not compile.
 */

export type PinpadDeviceConfig = ConfigValues['pinpad']['device'];
export type PrinterDeviceConfig = ConfigValues['printer'];

/** A pinpad to connect to: a transport factory (the driver makes a new one per reconnect). */
export interface PinpadTarget {
  readonly kind: PinpadDeviceConfig['kind'];
  readonly transport: () => Transport;
  /** For logs and `pinpad info`: `serial:/dev/pinpad`, `usb:1753:c902`, `virtual:127.0.0.1:40123`… */
  readonly description: string;
  /** The embedded virtual pinpad, started here, when the device is one. */
  readonly virtual?: VirtualPinpad;
  /** Its control port, when `pinpad.device.control` asks for one. */
  readonly controlPort?: number;
  /** Stops what was started here (the virtual pinpad); the transport is the driver's to close. */
  stop(): Promise<void>;
}

export interface PinpadTargetOptions {
  log?: Logger;
  /** Prepares the virtual pinpad before it listens (`omnipos init` restores its table memory). */
  beforeVirtualStart?: (virtual: VirtualPinpad) => void;
  /** The serial ports as the OS lists them (default: serialport's list; tests pass their own). */
  listPorts?: () => Promise<readonly PortInfo[]>;
}

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');
const nothing = (): Promise<void> => Promise.resolve();

/**
 * A USB CDC pinpad named by its vendor and product ids: at each open (a reconnect too, so a
 * replugged pinpad on a new ttyACM is found again) the serial port with exactly those ids, then
 * serialport on it. No port with those ids is TRANSPORT_OPEN_FAILED, like an absent serial path.
 */
export class UsbSerialTransport implements Transport {
  readonly description: string;
  #inner: SerialTransport | undefined;

  constructor(
    private readonly opts: { vendorId: number; productId: number; listPorts?: () => Promise<readonly PortInfo[]> },
  ) {
    this.description = `usb:${hex4(opts.vendorId)}:${hex4(opts.productId)}`;
  }

  get isOpen(): boolean {
    return this.#inner?.isOpen ?? false;
  }

  async open(): Promise<void> {
    const { vendorId, productId } = this.opts;
    const listed = this.opts.listPorts ? await this.opts.listPorts() : undefined;
    const found = (await discoverPinpadPorts({ usbIds: [{ vendorId, productId }] }, listed)).filter(
      (f) => f.usb?.vendorId === vendorId && f.usb.productId === productId,
    );
    const first = found[0];
    if (!first)
      throw new TransportError(
        'TRANSPORT_OPEN_FAILED',
        `${this.description}: no serial port with USB id ${hex4(vendorId)}:${hex4(productId)}`,
        { vendorId: hex4(vendorId), productId: hex4(productId) },
      );
    const inner = new SerialTransport({ path: first.path });
    await inner.open();
    this.#inner = inner;
  }

  read(): Promise<Uint8Array | null> {
    return this.#inner ? this.#inner.read() : Promise.resolve(null);
  }

  write(bytes: Uint8Array): Promise<void> {
    if (!this.#inner) return Promise.reject(new TransportError('TRANSPORT_CLOSED', `${this.description}: not open`));
    return this.#inner.write(bytes);
  }

  flush(): Promise<void> {
    return this.#inner ? this.#inner.flush() : Promise.resolve();
  }

  close(): Promise<void> {
    return this.#inner ? this.#inner.close() : Promise.resolve();
  }
}

/** The pinpad the configuration names (starting the embedded virtual one when it is that). */
export async function openPinpadTarget(
  device: PinpadDeviceConfig,
  opts: PinpadTargetOptions = {},
): Promise<PinpadTarget> {
  switch (device.kind) {
    case 'virtual': {
      const { VirtualPinpad, serveControl } = await import('../sim/pinpad/index.js');
      const virtual = new VirtualPinpad({ tcpPort: device.port });
      opts.beforeVirtualStart?.(virtual);
      await virtual.start();
      // The control port (`pinpad.device.control`): which card the customer presents at the next sale.
      let control: ControlPort | undefined;
      try {
        if (device.control !== undefined) control = await serveControl(virtual, device.control);
      } catch (e) {
        await virtual.stop();
        throw e;
      }
      const controlPort = control?.port;
      return {
        kind: device.kind,
        transport: () => new TcpTransport({ host: '127.0.0.1', port: virtual.port }),
        description: `virtual:127.0.0.1:${virtual.port}${controlPort !== undefined ? ` (control ${controlPort})` : ''}`,
        virtual,
        ...(controlPort !== undefined ? { controlPort } : {}),
        stop: async () => {
          await control?.close();
          await virtual.stop();
        },
      };
    }
    case 'serial':
      return {
        kind: device.kind,
        transport: () => new SerialTransport({ path: device.path, baudRate: device.baudRate }),
        description: `serial:${device.path}`,
        stop: nothing,
      };
    case 'tcp':
      return {
        kind: device.kind,
        transport: () => new TcpTransport({ host: device.host, port: device.port }),
        description: `tcp:${device.host}:${device.port}`,
        stop: nothing,
      };
    case 'usb': {
      const ids = { vendorId: parseInt(device.vendorId, 16), productId: parseInt(device.productId, 16) };
      const transport = (): Transport =>
        new UsbSerialTransport({ ...ids, ...(opts.listPorts ? { listPorts: opts.listPorts } : {}) });
      return {
        kind: device.kind,
        transport,
        description: `usb:${hex4(ids.vendorId)}:${hex4(ids.productId)}`,
        stop: nothing,
      };
    }
    case 'bibcomp':
      return {
        kind: device.kind,
        transport: bibcompTransport(device, opts.log),
        description: `bibcomp:${device.library} ${device.port}`,
        stop: nothing,
      };
    default:
      return unreachable(device);
  }
}

/** A printer to open: the driver's transport, its model, and the virtual printer when it is one. */
export interface PrinterTarget {
  readonly kind: Exclude<PrinterDeviceConfig['kind'], 'none'>;
  readonly transport: () => Transport;
  readonly description: string;
  readonly model: PrinterModel;
  readonly virtual?: VirtualPrinter;
  stop(): Promise<void>;
}

export interface PrinterTargetOptions {
  /** The model (tables/printers); default: virtual-80 for the virtual printer, epson-tm-t20 for a real one. */
  model?: PrinterModel;
  /** Prepares the virtual printer before it listens (`printer status --fault`). */
  beforeVirtualStart?: (virtual: VirtualPrinter) => void;
}

/** The model a real printer is driven as when none is named. */
export const DEFAULT_REAL_PRINTER_MODEL_ID = 'epson-tm-t20';

function printerModel(id: string): PrinterModel {
  const model = findPrinterModel(id);
  if (!model) throw new OmniposError('CONFIG_INVALID', `printer model ${id} is missing from tables/printers`);
  return model;
}

/** The printer the configuration names, or undefined for `none` (the virtual one is started here). */
export async function openPrinterTarget(
  p: PrinterDeviceConfig,
  opts: PrinterTargetOptions = {},
): Promise<PrinterTarget | undefined> {
  if (p.kind === 'none') return undefined;
  if (p.kind === 'virtual') {
    const { serveVirtualPrinter, VirtualPrinter } = await import('../sim/printer/index.js');
    const virtual = new VirtualPrinter({ model: opts.model ?? printerModel(DEFAULT_PRINTER_MODEL_ID) });
    opts.beforeVirtualStart?.(virtual);
    const server = await serveVirtualPrinter(virtual, { port: 0 });
    return {
      kind: p.kind,
      transport: () => new TcpTransport({ host: server.host, port: server.port }),
      description: `virtual:${server.host}:${server.port}`,
      model: virtual.model,
      virtual,
      stop: () => server.close(),
    };
  }
  const model = opts.model ?? printerModel(DEFAULT_REAL_PRINTER_MODEL_ID);
  switch (p.kind) {
    case 'tcp':
      return {
        kind: p.kind,
        transport: () => new TcpTransport({ host: p.host, port: p.port }),
        description: `tcp:${p.host}:${p.port}`,
        model,
        stop: nothing,
      };
    case 'serial':
      return {
        kind: p.kind,
        transport: () => new SerialTransport({ path: p.path, baudRate: p.baudRate }),
        description: `serial:${p.path}`,
        model,
        stop: nothing,
      };
    case 'usb': {
      const ids = { vendorId: parseInt(p.vendorId, 16), productId: parseInt(p.productId, 16) };
      return {
        kind: p.kind,
        transport: () => new UsbPrinterTransport(ids),
        description: `usb:${hex4(ids.vendorId)}:${hex4(ids.productId)}`,
        model,
        stop: nothing,
      };
    }
    default:
      return unreachable(p);
  }
}

/** The ESC/POS driver on a printer target (one transport: the driver reopens it itself). */
export function printerDriver(
  target: PrinterTarget,
  options: { pollMs?: number; replyTimeoutMs?: number } = {},
): EscPosPrinter {
  return new EscPosPrinter({ transport: target.transport(), model: target.model, ...options });
}

function unreachable(x: never): never {
  throw new OmniposError(
    'CONFIG_INVALID',
    `device kind ${JSON.stringify((x as { kind?: unknown }).kind)} is not one this version drives`,
  );
}
