import { ACK, CAN, EOT, NAK } from '../control.js';
import type { LinkTimings } from './timings.js';

/**
 * The ABECS link layer as a pure transition function (§2.2.2, flowcharts of §2.2.3):
 * `transition(timings, state, input) -> { state, effects }`. The owner runs the effects (writes
 * bytes, keeps ONE timer, settles promises) and feeds back what the port and the timer do. One
 * command is on the wire at a time; others wait in `queue`, in order.
 */

/** A command ready for the wire. */
export interface LinkCommand {
  readonly id: number;
  /** CMD_ID, for logs and errors. */
  readonly name: string;
  /**
   * The whole encoded packet. Read only when the command goes on the wire: the link builds it then,
   * so it is sealed under the session key in force when sent, not when queued (and resent as is on NAK).
   * Undefined when it cannot be sealed then (no secure session): the command fails `unsealable`, unsent.
   */
  readonly wire: Uint8Array | undefined;
  /** Blocking commands wait for the response without limit and may receive notifications. */
  readonly blocking: boolean;
  /** This command's wait for its answer when not blocking, ms (default: the timings' `responseMs`). */
  readonly responseMs?: number;
}

/** The wait for `cmd`'s answer: none for a blocking command, its own or the link's response time otherwise. */
const answerWait = (t: LinkTimings, cmd: LinkCommand): number | null =>
  cmd.blocking ? null : (cmd.responseMs ?? t.responseMs);

/** Why a command ended without a response. */
export type FailReason =
  /** NAK to every send. */
  | 'nak'
  /** Neither ACK nor NAK within `ackMs`. */
  | 'no-ack'
  /** No response to a non-blocking command within `responseMs`. */
  | 'timeout'
  /** Every reception of the response failed its CRC. */
  | 'bad-response'
  /** Cancelled: CAN answered by EOT, or dropped from the queue before it was sent. */
  | 'cancelled'
  /** CAN sent `cancelTries` times and never answered by EOT. */
  | 'cancel-unanswered'
  /** The link went down, or was down when the command came. */
  | 'disconnected'
  /** The packet layer could not seal it when its turn came (no secure session): never sent. */
  | 'unsealable';

export type LinkState =
  | { readonly kind: 'down'; readonly queue: readonly LinkCommand[] }
  | { readonly kind: 'idle'; readonly queue: readonly LinkCommand[] }
  | {
      readonly kind: 'await-ack';
      readonly cmd: LinkCommand;
      readonly sends: number;
      readonly queue: readonly LinkCommand[];
    }
  | {
      readonly kind: 'await-response';
      readonly cmd: LinkCommand;
      /** Receptions that failed the CRC so far. */
      readonly bad: number;
      /** True while discarding input until silence, before sending NAK. */
      readonly nakPending: boolean;
      /** When the first bytes came while `nakPending` (the `at` of an activity): that wait is bounded by `drainMaxMs` too. */
      readonly since?: number;
      readonly queue: readonly LinkCommand[];
    }
  | {
      readonly kind: 'cancelling';
      /** The command being cancelled; absent for a probe of the idle link or a resynchronisation. */
      readonly cmd: LinkCommand | undefined;
      /** cancel: a command's (cmd set); probe: of the idle link; resync: after a command timed out. */
      readonly purpose: 'cancel' | 'probe' | 'resync';
      readonly cans: number;
      readonly queue: readonly LinkCommand[];
    }
  | {
      readonly kind: 'draining';
      readonly queue: readonly LinkCommand[];
      /** When the first bytes came while draining (the `at` of an activity); the discard ends `drainMaxMs` after it at the latest. */
      readonly since?: number;
    };

export type LinkInput =
  | { readonly type: 'submit'; readonly cmd: LinkCommand }
  /** Cancel a command: CAN if it is on the wire, dropped if still queued, ignored if unknown. */
  | { readonly type: 'cancel'; readonly id: number }
  /** Probe the idle link with CAN (answered by EOT in any state, §2.2.2.3). Ignored unless idle: a probe would abort a blocking command. */
  | { readonly type: 'probe' }
  | { readonly type: 'control'; readonly byte: number }
  | { readonly type: 'frame'; readonly data: Uint8Array; readonly notification: boolean }
  | { readonly type: 'bad-frame' }
  /**
   * Any bytes arrived (before their events). Restarts the silence wait of a discard. `started`: a
   * packet began (SYN) in them — the non-blocking 10 s runs to the answer's first byte (§2.2.3), the
   * inter-byte time of the packet (the owner's) takes over from there.
   */
  | { readonly type: 'activity'; readonly started?: boolean; readonly at?: number }
  /** The one timer fired. */
  | { readonly type: 'timeout' }
  | { readonly type: 'down' }
  | { readonly type: 'up' };

export type LinkEffect =
  | { readonly type: 'write'; readonly bytes: Uint8Array; readonly what: 'command' | 'nak' | 'can' }
  /** Arm the one timer (replacing any), or clear it with `ms: null`. */
  | { readonly type: 'timer'; readonly ms: number | null }
  | { readonly type: 'acked'; readonly id: number }
  | { readonly type: 'response'; readonly id: number; readonly data: Uint8Array }
  | { readonly type: 'notification'; readonly id: number; readonly data: Uint8Array }
  | { readonly type: 'failed'; readonly id: number; readonly reason: FailReason }
  | { readonly type: 'probed'; readonly ok: boolean }
  /** The CAN sent to resynchronise after a timeout got no EOT: the pinpad is gone. */
  | { readonly type: 'resync-failed' }
  /** Drop any half-received packet: the silence ended a discard. */
  | { readonly type: 'drop-partial' };

export interface Transition {
  readonly state: LinkState;
  readonly effects: readonly LinkEffect[];
}

export const INITIAL_LINK_STATE: LinkState = { kind: 'down', queue: [] };

const NAK_BYTE = Uint8Array.of(NAK);
const CAN_BYTE = Uint8Array.of(CAN);

/** Starts the next queued command that can be sealed (the others fail unsent), or rests idle. */
function next(t: LinkTimings, queue: readonly LinkCommand[], effects: LinkEffect[]): Transition {
  for (let i = 0; i < queue.length; i++) {
    const cmd = queue[i]!;
    const wire = cmd.wire;
    if (!wire) {
      effects.push(fail(cmd, 'unsealable'));
      continue;
    }
    effects.push({ type: 'write', bytes: wire, what: 'command' }, { type: 'timer', ms: t.ackMs });
    return { state: { kind: 'await-ack', cmd, sends: 1, queue: queue.slice(i + 1) }, effects };
  }
  effects.push({ type: 'timer', ms: null });
  return { state: { kind: 'idle', queue: [] }, effects };
}

/** After an error: discard input until `silenceMs` of silence (§2.2.3), then go on. */
function drain(t: LinkTimings, queue: readonly LinkCommand[], effects: LinkEffect[]): Transition {
  effects.push({ type: 'timer', ms: t.silenceMs });
  return { state: { kind: 'draining', queue }, effects };
}

/**
 * After a command timed out (no ACK, no answer): CAN, to bring the pinpad back to idle whatever it
 * was doing (§2.2.2.3), then the next command once EOT comes.
 */
function resync(t: LinkTimings, queue: readonly LinkCommand[], effects: LinkEffect[]): Transition {
  effects.push({ type: 'write', bytes: CAN_BYTE, what: 'can' }, { type: 'timer', ms: t.eotMs });
  return { state: { kind: 'cancelling', cmd: undefined, purpose: 'resync', cans: 1, queue }, effects };
}

function fail(cmd: LinkCommand, reason: FailReason): LinkEffect {
  return { type: 'failed', id: cmd.id, reason };
}

/** The transition function. Total: every (state, input) pair has an answer; unexpected inputs change nothing. */
export function transition(t: LinkTimings, state: LinkState, input: LinkInput): Transition {
  const same: Transition = { state, effects: [] };
  switch (input.type) {
    case 'down': {
      const effects: LinkEffect[] = [{ type: 'timer', ms: null }];
      if ('cmd' in state && state.cmd) effects.push(fail(state.cmd, 'disconnected'));
      if (state.kind === 'cancelling' && state.purpose === 'probe') effects.push({ type: 'probed', ok: false });
      for (const q of state.queue) effects.push(fail(q, 'disconnected'));
      return { state: { kind: 'down', queue: [] }, effects };
    }
    case 'up':
      return state.kind === 'down' ? next(t, state.queue, []) : same;
    case 'submit':
      if (state.kind === 'down') return { state, effects: [fail(input.cmd, 'disconnected')] };
      if (state.kind === 'idle') return next(t, [input.cmd], []);
      return { state: { ...state, queue: [...state.queue, input.cmd] }, effects: [] };
    case 'cancel': {
      const queued = state.queue.find((c) => c.id === input.id);
      if (queued) {
        return {
          state: { ...state, queue: state.queue.filter((c) => c !== queued) },
          effects: [fail(queued, 'cancelled')],
        };
      }
      if ((state.kind === 'await-ack' || state.kind === 'await-response') && state.cmd.id === input.id) {
        return {
          state: { kind: 'cancelling', cmd: state.cmd, purpose: 'cancel', cans: 1, queue: state.queue },
          effects: [
            { type: 'write', bytes: CAN_BYTE, what: 'can' },
            { type: 'timer', ms: t.eotMs },
          ],
        };
      }
      return same;
    }
    case 'probe':
      if (state.kind !== 'idle') return same;
      return {
        state: { kind: 'cancelling', cmd: undefined, purpose: 'probe', cans: 1, queue: state.queue },
        effects: [
          { type: 'write', bytes: CAN_BYTE, what: 'can' },
          { type: 'timer', ms: t.eotMs },
        ],
      };
    case 'activity':
      if (state.kind === 'draining' || (state.kind === 'await-response' && state.nakPending)) {
        // bytes restart the wait for silence, up to drainMaxMs from the first of them: a device that never
        // falls silent does not keep the link discarding forever
        const since = state.since ?? input.at;
        if (since !== undefined && input.at !== undefined && input.at - since >= t.drainMaxMs)
          return onTimeout(t, state);
        return {
          state: since === undefined ? state : { ...state, since },
          effects: [{ type: 'timer', ms: t.silenceMs }],
        };
      }
      if (state.kind === 'await-response' && input.started && !state.cmd.blocking)
        return { state, effects: [{ type: 'timer', ms: null }] };
      return same;
    case 'control':
      return onControl(t, state, input.byte);
    case 'frame':
      return onFrame(t, state, input.data, input.notification);
    case 'bad-frame':
      if (state.kind !== 'await-response' || state.nakPending) return same;
      if (state.bad + 1 >= t.receiveTries) return drain(t, state.queue, [fail(state.cmd, 'bad-response')]);
      return {
        state: { ...state, bad: state.bad + 1, nakPending: true },
        effects: [{ type: 'timer', ms: t.silenceMs }],
      };
    case 'timeout':
      return onTimeout(t, state);
  }
}

function onControl(t: LinkTimings, state: LinkState, byte: number): Transition {
  if (state.kind === 'await-ack') {
    if (byte === ACK) {
      return {
        state: { kind: 'await-response', cmd: state.cmd, bad: 0, nakPending: false, queue: state.queue },
        effects: [
          { type: 'acked', id: state.cmd.id },
          { type: 'timer', ms: answerWait(t, state.cmd) },
        ],
      };
    }
    if (byte === NAK) {
      if (state.sends >= t.sendTries) return drain(t, state.queue, [fail(state.cmd, 'nak')]);
      return {
        state: { ...state, sends: state.sends + 1 },
        effects: [
          // the wire read when it was first sent (kept by the owner), so never undefined here
          { type: 'write', bytes: state.cmd.wire ?? new Uint8Array(0), what: 'command' },
          { type: 'timer', ms: t.ackMs },
        ],
      };
    }
    return { state, effects: [] };
  }
  if (state.kind === 'cancelling' && byte === EOT) {
    const done: LinkEffect[] = state.cmd
      ? [fail(state.cmd, 'cancelled')]
      : state.purpose === 'probe'
        ? [{ type: 'probed', ok: true }]
        : [];
    return next(t, state.queue, done);
  }
  return { state, effects: [] };
}

function onFrame(t: LinkTimings, state: LinkState, data: Uint8Array, notification: boolean): Transition {
  if (state.kind === 'await-ack') {
    // The answer came but its ACK was lost on the line: the pinpad answers only a command it took
    const acked = onControl(t, state, ACK);
    const after = onFrame(t, acked.state, data, notification);
    return { state: after.state, effects: [...acked.effects, ...after.effects] };
  }
  if (state.kind !== 'await-response' || state.nakPending) return { state, effects: [] };
  if (notification) {
    // a non-blocking command gets none (§2.3.3); should one come, its 10 s start again rather than never end
    const effects: LinkEffect[] = [{ type: 'notification', id: state.cmd.id, data }];
    if (!state.cmd.blocking) effects.push({ type: 'timer', ms: answerWait(t, state.cmd) });
    return { state, effects };
  }
  return next(t, state.queue, [{ type: 'response', id: state.cmd.id, data }]);
}

function onTimeout(t: LinkTimings, state: LinkState): Transition {
  switch (state.kind) {
    case 'await-ack':
      return resync(t, state.queue, [fail(state.cmd, 'no-ack')]);
    case 'await-response':
      if (state.nakPending) {
        const { since: _since, ...rest } = state;
        return {
          state: { ...rest, nakPending: false },
          effects: [
            { type: 'write', bytes: NAK_BYTE, what: 'nak' },
            { type: 'timer', ms: answerWait(t, state.cmd) },
          ],
        };
      }
      return state.cmd.blocking ? { state, effects: [] } : resync(t, state.queue, [fail(state.cmd, 'timeout')]);
    case 'cancelling':
      if (state.cans < t.cancelTries) {
        return {
          state: { ...state, cans: state.cans + 1 },
          effects: [
            { type: 'write', bytes: CAN_BYTE, what: 'can' },
            { type: 'timer', ms: t.eotMs },
          ],
        };
      }
      return drain(t, state.queue, [
        state.cmd
          ? fail(state.cmd, 'cancel-unanswered')
          : state.purpose === 'probe'
            ? { type: 'probed', ok: false }
            : { type: 'resync-failed' },
      ]);
    case 'draining':
      return next(t, state.queue, [{ type: 'drop-partial' }]);
    default:
      return { state, effects: [] };
  }
}
