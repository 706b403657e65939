import { BIBCOMP_REACH, bibcompLibrary, findBibcompLibraries, LIBRARY_DIRS } from '../../drivers/bibcomp/index.js';
import { knownPinpad, listHidDevices, listSerialPorts, type PortInfo } from '../../drivers/transport/index.js';

/**
 * What a technician finds before configuring a device (`omnipos pinpad ports`, `omnipos config
 * check`): the ports the OS lists and the BibComp libraries on disk. Nothing is opened or sent.
 */

/** A serial or HID port as the OS lists it, and the pinpad its USB ids name (null when none known). */
export type ListedPort = PortInfo & { pinpad: string | null };

/** The serial ports, then the HID devices, each with the pinpad its USB ids are known for. */
export async function listDevicePorts(): Promise<ListedPort[]> {
  return [...(await listSerialPorts()), ...(await listHidDevices())].map((p) => ({
    ...p,
    pinpad: knownPinpad(p) ?? null,
  }));
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
