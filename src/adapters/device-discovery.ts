import { BIBCOMP_REACH, bibcompLibrary, findBibcompLibraries, LIBRARY_DIRS } from '../../drivers/bibcomp/index.js';
import { knownPinpad, listSerialPorts, listUsbDevices, type PortInfo } from '../../drivers/transport/index.js';

/**
 * What a technician finds before configuring a device (`omnipos pinpad ports`, `omnipos config
 * check`): the ports the OS lists and the BibComp libraries on disk. Nothing is opened or sent.
 */

/**
 * A port as the OS lists it and the pinpad its USB ids name (null when none known); `unusable` says why
 * omnipos cannot open it (a pinpad seen on USB with no serial port).
 */
export type ListedPort = PortInfo & { pinpad: string | null; unusable?: string };

/** Why a pinpad seen on USB without a serial port cannot be opened, and what the technician can do. */
export const NO_SERIAL_PORT =
  'no serial port for it: omnipos opens a pinpad over USB serial (CDC, /dev/ttyACM*), TCP or its BibComp library; ' +
  "set the pinpad's USB mode to serial (CDC) or check the kernel's cdc_acm driver";

const sameDevice = (usb: PortInfo, serial: PortInfo): boolean =>
  usb.vendorId === serial.vendorId &&
  usb.productId === serial.productId &&
  (usb.serialNumber === undefined || serial.serialNumber === undefined || usb.serialNumber === serial.serialNumber);

/**
 * The serial ports, each with the pinpad its USB ids are known for; then every USB device known as a
 * pinpad that has no serial port (the kernel lists it, nothing can open it), with the reason.
 */
export async function listDevicePorts(usbRoot?: string): Promise<ListedPort[]> {
  const serial = (await listSerialPorts()).map((p) => ({ ...p, pinpad: knownPinpad(p) ?? null }));
  const stranded = listUsbDevices(usbRoot).flatMap((usb) => {
    const pinpad = knownPinpad(usb);
    if (!pinpad || serial.some((s) => sameDevice(usb, s))) return [];
    return [{ ...usb, pinpad, unusable: NO_SERIAL_PORT }];
  });
  return [...serial, ...stranded];
}

/** The BibComp libraries in the usual library folders and in `extraDirs`. */
export function findPinpadLibraries(extraDirs: readonly string[] = []): string[] {
  return findBibcompLibraries([...LIBRARY_DIRS, ...extraDirs]);
}

/** Why a pinpad behind a BibComp library cannot take card sales (drivers/bibcomp/reach.ts, from the specification). */
export const BIBCOMP_CARD_SALES_REASON: string = BIBCOMP_REACH.cardSales.reason;

/** Why the BibComp library at `library` does not load as the daemon loads it, or undefined when it does. */
export function bibcompLibraryProblem(library: string): string | undefined {
  try {
    bibcompLibrary(library);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
