import { afterAll, beforeAll } from 'vitest';
import { Pinpad, SecurePinpad, type PinpadOptions, type SecurePinpadOptions } from '../../drivers/pinpad/index.js';
import { SerialTransport, TcpTransport } from '../../drivers/transport/index.js';
import { VirtualPinpad, type VirtualPinpadOptions } from '../../src/sim/pinpad/index.js';

/**
 * The virtual pinpad, started: on loopback TCP (port 0 unless `tcpPort` says), and also at a pseudo-terminal when
 * `ptyPath` is given (socat). With `cleanup`, its stop is pushed there for the test's own teardown, in order.
 */
export async function startVirtualPinpad(
  options: VirtualPinpadOptions = {},
  cleanup?: Array<() => Promise<void>>,
): Promise<VirtualPinpad> {
  const sim = new VirtualPinpad(options);
  await sim.start();
  cleanup?.push(() => sim.stop());
  return sim;
}

/**
 * One virtual pinpad for the tests of a file or a describe: made now, started before them and stopped after them
 * (after the hooks registered later, which vitest runs first).
 */
export function useVirtualPinpad(options: VirtualPinpadOptions = {}): VirtualPinpad {
  const sim = new VirtualPinpad(options);
  beforeAll(() => sim.start());
  afterAll(() => sim.stop());
  return sim;
}

/** Where the driver reaches a pinpad: a TCP port on loopback, or a serial device (a pty). */
export type PinpadAt = { port: number } | { pty: string };

/**
 * The pinpad driver on `at`, connected; `options` as the driver takes them (timings, probe, reconnect, log…). With
 * `cleanup`, its close is pushed there before it connects.
 */
export async function connectPinpad(
  at: PinpadAt,
  options: Omit<PinpadOptions, 'transport'> = {},
  cleanup?: Array<() => Promise<void>>,
): Promise<Pinpad> {
  const pinpad = new Pinpad({ transport: transportTo(at), ...options });
  cleanup?.push(() => pinpad.close());
  await pinpad.connect();
  return pinpad;
}

/**
 * The secure driver (SecurePinpad: the secure OPN, then commands sealed, ABECS 2.20 §5.2) on `at` with the terminal's
 * key pair `terminalKey`, connected; `options` as the driver takes them. With `cleanup`, its close is pushed there
 * before it connects.
 */
export async function connectSecurePinpad(
  at: PinpadAt,
  terminalKey: SecurePinpadOptions['terminalKey'],
  options: Omit<SecurePinpadOptions, 'transport' | 'terminalKey'> = {},
  cleanup?: Array<() => Promise<void>>,
): Promise<SecurePinpad> {
  const pinpad = new SecurePinpad({ transport: transportTo(at), terminalKey, ...options });
  cleanup?.push(() => pinpad.close());
  await pinpad.connect();
  return pinpad;
}

/** A new transport to `at` each time the driver (re)opens the link. */
function transportTo(at: PinpadAt): () => TcpTransport | SerialTransport {
  return () =>
    'port' in at ? new TcpTransport({ host: '127.0.0.1', port: at.port }) : new SerialTransport({ path: at.pty });
}
