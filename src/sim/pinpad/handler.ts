import type { VirtualPinpadProfile } from './profile.js';
import type { PinpadMemory } from './memory.js';

/*
 * What a command handler of the virtual pinpad sees and returns, and the packet layer the engine
 * opens and seals packets with (src/sim/pinpad/engine.ts runs them).
 */

/** A command as a handler sees it. */
export interface SimCommand {
  readonly id: string;
  readonly blocks: readonly Uint8Array[];
  /** The whole PKTDATA (CMD_ID and blocks), clear. */
  readonly data: Uint8Array;
}

/**
 * How packets are opened and answers sealed: clear by default; the secure channel (§5.2) sets its
 * own after a secure OPN. `open` may throw to refuse a packet; `seal` then gives the refusal.
 */
export interface PacketLayer {
  open(data: Uint8Array): Uint8Array;
  seal(data: Uint8Array, responseId: string): Uint8Array;
  /** The command id inside a packet, without side effects (fault targeting); undefined when it does not open. */
  peekId?(data: Uint8Array): string | undefined;
}

export const CLEAR_LAYER: PacketLayer = { open: (d) => d, seal: (d) => d };

/** What a handler can see and do. */
export interface SimContext {
  readonly profile: VirtualPinpadProfile;
  readonly state: SimState;
  /** Aborted when CAN or a new command arrives (§6.2.1): a blocking handler stops and answers nothing. */
  readonly signal: AbortSignal;
  /** Sends an NTM notification (§2.3.3) while a blocking command runs. */
  notify(text: string): void;
  /** Waits for the cardholder to type (the `keys` control command or the default). */
  nextKeys(): Promise<string>;
  /** Switches the packet layer once this command's answer is out (secure OPN answers in clear, then seals). */
  setLayerAfterResponse(layer: PacketLayer): void;
}

/** A handler returns the answer's PKTDATA (see writeAnswer). Throwing a Refusal gives its status; anything else ST_INTERR. */
export type SimHandler = (cmd: SimCommand, ctx: SimContext) => Uint8Array | Promise<Uint8Array>;

/** Thrown by a handler (or its parameter reading) to answer `status` with no data. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly why: string,
  ) {
    super(why);
  }
}

/** The pinpad's own state: display, session. The secure channel keeps its key here. */
export interface SimState {
  display: string[];
  opened: boolean;
  /** Free slots for the secure session key, held track, EMV tables. */
  session: Record<string, unknown>;
  /** Commands received, by id, in order (for tests). */
  received: string[];
  /** CAN bytes received (a probe or a cancel), for tests that prove none came. */
  cans: number;
  /** Packets NAKed by the link level, by reason (for tests of the strict reader). */
  rejected?: Record<string, number>;
  /** Moved on when the card context is lost without a new session (a CAN some firmware reads as "drop it"). */
  cardEpoch?: number;
  /** Reboots with the line up so far (the `reboot` fault). */
  reboots?: number;
  /** What a power cycle keeps (the DUKPT counters); a memory of the process's life when absent. */
  readonly memory?: PinpadMemory;
}
