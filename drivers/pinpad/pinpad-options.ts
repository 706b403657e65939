import type { Transport } from '../transport/index.js';
import type { CommandSpec } from './commands/spec.js';
import { PinpadError } from './errors.js';
import type { PacketLayer } from './link/link.js';
import type { LinkTimings } from './link/timings.js';
import type { DriverLogger } from './logger.js';

/** Runs a command inside the session opener, before the pinpad is reported connected. */
export type SessionRunner = <Req, Res>(spec: CommandSpec<Req, Res>, req: Req) => Promise<Res>;

/** What a session opener gets: a way to run commands and to set the packet layer (secure channel). */
export interface SessionControl {
  run: SessionRunner;
  /** Sets the packet layer for the rest of this connection (CLEAR_LAYER to go back to clear). */
  setLayer(layer: PacketLayer): void;
}

export interface PinpadOptions {
  /** Makes a new transport for each connection attempt (the same target each time). */
  transport: () => Transport;
  /** Link times and tries; defaults are the spec's (linkTimings()). */
  timings?: Partial<LinkTimings>;
  /** Probe the idle link with CAN every this many ms (default 5000; 0 = never). Never while a command runs. */
  probeIntervalMs?: number;
  /** Reconnect after a loss with exponential backoff: first delay (default 250 ms), cap (default 5000 ms). */
  reconnect?: { enabled?: boolean; initialMs?: number; maxMs?: number };
  /**
   * Opens the session after each (re)connect; every new connection starts in clear. Default:
   * classic OPN. The secure channel passes its opener here (secure OPN, then `setLayer`).
   */
  openSession?: (session: SessionControl) => Promise<void>;
  log?: DriverLogger;
}

export interface RunOptions {
  /** Aborting sends CAN for a command on the wire, or drops it from the queue; the call rejects with PINPAD_CANCELLED. */
  signal?: AbortSignal;
}

/** An integer option within its bounds (its default when absent); PINPAD_INVALID_ARGUMENT naming it otherwise. */
export function intOption(v: number | undefined, def: number, min: number, max: number, name: string): number {
  const x = v ?? def;
  if (!Number.isInteger(x) || x < min || x > max) {
    throw new PinpadError('PINPAD_INVALID_ARGUMENT', `${name} must be an integer in ${min}..${max}, got ${x}`, {
      key: name,
      value: x,
    });
  }
  return x;
}
