import { sessionRule, type SimSessionRule } from '../spec/commands.js';
import type { PacketLayer, SimState } from '../engine.js';
import { writeAnswer } from '../wire/command.js';
import { isSecurePacket, openCommand, sealAnswer } from './envelope.js';

const ST_NOSEC = 3;
const ST_ERRPKTSEC = 9;
const ST_INVCALL = 10;

const idOf = (b: Uint8Array): string => Buffer.from(b.subarray(0, 3)).toString('latin1');
/** What a command does to the session, from the specification's table (OPN opens, CLO/CLX close). */
const sessionOf = (id: string): SimSessionRule | undefined => sessionRule(id);

/** The secure session as the virtual pinpad keeps it in `state.session.secure` (CLO and OPN wipe it). */
export interface SimSecureSession {
  readonly ksec: Uint8Array;
}

/** The session of `state`, if one is up. */
export function secureSession(state: SimState): SimSecureSession | undefined {
  const s = state.session.secure as SimSecureSession | undefined;
  return s && s.ksec instanceof Uint8Array ? s : undefined;
}

/** Thrown by `open` for a packet the layer answers itself; the engine then asks `seal` for the answer. */
class Refused extends Error {}

/**
 * The pinpad's side of §5.2 and §6.3.2, as the engine's packet layer. The key lives in
 * `state.session.secure`, so CLO (which clears the session) ends it and its answer goes out clear.
 * Packets the pinpad refuses never reach a handler: `open` throws and the engine's answer for the
 * failure is replaced, in `seal`, by the one §6.3.2 prescribes, in clear:
 * - DC2 with no session: `ERR003` (ST_NOSEC).
 * - DC2 that fails the checks of §5.2.2.2: `ERR009`, session ended, pinpad closed.
 * - an encrypted OPN: `OPN010` (ST_INVCALL), session ended.
 * - a clear command other than OPN inside a session: `xxx009`, session kept.
 * OPN answers go out clear (a secure OPN's carries the new key's cryptogram).
 */
/**
 * Trace entries kept: the newest. Unbounded, the trace held five entries a sale for as long as the
 * daemon ran its virtual pinpad (the soak: 6,000 objects retained over 1,200 sales).
 */
export const KEPT_TRACE = 1000;

export class SimSecureLayer implements PacketLayer {
  private refusal: Uint8Array | undefined;
  /** The last {@link KEPT_TRACE} commands that reached a handler through this layer, and whether each came encrypted (for tests). */
  readonly trace: { id: string; sealed: boolean }[] = [];

  constructor(private readonly state: SimState) {}

  open(data: Uint8Array): Uint8Array {
    this.refusal = undefined;
    const session = secureSession(this.state);
    if (isSecurePacket(data)) {
      if (!session) return this.refuse(writeAnswer('ERR', ST_NOSEC));
      const clr = openCommand(session.ksec, data);
      if (!clr) {
        this.close();
        return this.refuse(writeAnswer('ERR', ST_ERRPKTSEC));
      }
      if (sessionOf(idOf(clr)) === 'opens') {
        this.close();
        return this.refuse(writeAnswer('OPN', ST_INVCALL));
      }
      this.#traced({ id: idOf(clr), sealed: true });
      return clr;
    }
    const id = idOf(data);
    if (session && sessionOf(id) !== 'opens') return this.refuse(writeAnswer(id, ST_ERRPKTSEC));
    this.#traced({ id, sealed: false });
    return data;
  }

  #traced(entry: { id: string; sealed: boolean }): void {
    this.trace.push(entry);
    if (this.trace.length > KEPT_TRACE) this.trace.splice(0, this.trace.length - KEPT_TRACE);
  }

  peekId(data: Uint8Array): string | undefined {
    const session = secureSession(this.state);
    const clr = session && isSecurePacket(data) ? openCommand(session.ksec, data) : undefined;
    return clr ? idOf(clr) : undefined;
  }

  seal(data: Uint8Array, responseId: string): Uint8Array {
    const refusal = this.refusal;
    this.refusal = undefined;
    if (refusal) return refusal;
    const session = secureSession(this.state);
    // OPN answers are clear (the terminal has no key before it); CLO/CLX answers are clear (§5.2.2)
    const kind = sessionOf(responseId);
    if (!session || kind === 'opens' || kind === 'closes') return data;
    return sealAnswer(session.ksec, data);
  }

  private close(): void {
    this.state.session = {};
    this.state.opened = false;
  }

  private refuse(answer: Uint8Array): never {
    this.refusal = answer;
    throw new Refused('refused by the secure channel');
  }
}

const layers = new WeakMap<SimState, SimSecureLayer>();

/** The one secure layer of a virtual pinpad (it keeps its trace across connections). */
export function secureLayerOf(state: SimState): SimSecureLayer {
  let l = layers.get(state);
  if (!l) layers.set(state, (l = new SimSecureLayer(state)));
  return l;
}
