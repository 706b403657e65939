import { PinpadError } from '../errors.js';

/**
 * Times and tries of the link layer (ABECS 2.20 §2.2.2, §2.2.3). The defaults are the
 * specification's; tests shorten them where the behaviour, not the constant, is under test.
 */
export interface LinkTimings {
  /** Wait for ACK/NAK after sending a packet, ms (§2.2.2.1: 2 s). Range 1..60000. */
  ackMs: number;
  /** Wait for the response to a non-blocking command, ms (§2.2.2: 10 s). Blocking commands wait without limit. Range 1..600000. */
  responseMs: number;
  /** Wait for EOT after CAN, ms (§2.2.2.3: 2 s). Range 1..60000. */
  eotMs: number;
  /** Wait for each next byte inside a packet, ms (§2.2.3: 2 s); past it the packet is an error. Range 1..60000. */
  interByteMs: number;
  /** Silence that ends the discard after an error, ms (§2.2.3: 500 ms). Range 1..10000. */
  silenceMs: number;
  /**
   * The longest a discard waits for that silence, ms (not in the specification: ours, so that a device
   * streaming bytes does not keep the link discarding forever); past it the link goes on as after the
   * silence. Range 1..60000.
   */
  drainMaxMs: number;
  /** Sends of a command before giving up on NAKs (§2.2.2.1: 3). Range 1..10. */
  sendTries: number;
  /** Receptions of a response before giving up on bad CRCs (§2.2.2.2: 3). Range 1..10. */
  receiveTries: number;
  /** CANs sent before giving up on EOT (§2.2.2.3: 3). Range 1..10. */
  cancelTries: number;
}

export const SPEC_TIMINGS: Readonly<LinkTimings> = Object.freeze({
  ackMs: 2000,
  responseMs: 10_000,
  eotMs: 2000,
  interByteMs: 2000,
  silenceMs: 500,
  drainMaxMs: 5000,
  sendTries: 3,
  receiveTries: 3,
  cancelTries: 3,
});

const RANGES: Record<keyof LinkTimings, [number, number]> = {
  ackMs: [1, 60_000],
  responseMs: [1, 600_000],
  eotMs: [1, 60_000],
  interByteMs: [1, 60_000],
  silenceMs: [1, 10_000],
  drainMaxMs: [1, 60_000],
  sendTries: [1, 10],
  receiveTries: [1, 10],
  cancelTries: [1, 10],
};

/** The spec's timings with `overrides` applied, each checked against its range. */
export function linkTimings(overrides: Partial<LinkTimings> = {}): LinkTimings {
  const t = { ...SPEC_TIMINGS, ...overrides };
  for (const [k, [min, max]] of Object.entries(RANGES) as [keyof LinkTimings, [number, number]][]) {
    const v = t[k];
    if (!Number.isInteger(v) || v < min || v > max) {
      throw new PinpadError(
        'PINPAD_INVALID_ARGUMENT',
        `link timing ${k} must be an integer in ${min}..${max}, got ${v}`,
        { key: k, value: v },
      );
    }
  }
  return t;
}
