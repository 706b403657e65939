import { commandRow } from '../../../tables/pinpad/commands.js';
import { PinpadError, isPinpadError } from '../errors.js';
import type { PacketLayer } from '../link/link.js';
import { SILENT_LOGGER, type DriverLogger } from '../logger.js';
import type { SessionControl } from '../pinpad.js';
import { isSealed, openPacket, sealPacket } from './envelope.js';
import { SessionAes } from './packet-aes.js';
import { OPN_SECURE } from './opn.js';
import type { TerminalKey } from './rsa.js';

/**
 * What the secure OPN said about the pinpad (§3.2.2): `abecs` answered CRKSEC (current
 * specification: Abecs commands, card sales); `classic` answered as an obsolete pinpad (information
 * and display only); `unknown` before the first OPN.
 */
export type Recognition = 'unknown' | 'abecs' | 'classic';

/** Why the last secure session ended. */
export type SessionEnd = 'reconnect' | 'opn' | 'clo' | 'err009' | 'nosec' | 'bad-answer';

/** The secure channel's state, for `omnipos pinpad info`, adapters and tests. Never the key. */
export interface SecureStatus {
  readonly recognition: Recognition;
  /** A secure session (KSEC) is up on the current connection. */
  readonly secure: boolean;
  /** Secure sessions established since the driver was built. */
  readonly sessions: number;
  readonly lastEnd?: SessionEnd;
}

/** Secure OPNs sent before a refusal (an error status) is reported. */
const SECURE_OPN_TRIES = 3;

const text = (b: Uint8Array, from: number, to: number): string => Buffer.from(b.subarray(from, to)).toString('latin1');

/** A clear answer where the secure channel allows none (§6.3.2): fails its command; nothing of it is kept. */
const clearAnswer = (id: string): PinpadError =>
  new PinpadError('PINPAD_PROTOCOL', `${id}: a clear answer inside a secure session (§6.3.2)`, {
    where: 'secure channel',
    responseId: id,
    reason: 'clear-answer',
  });

/**
 * The secure channel of ABECS 2.20 §5.2 as the driver's packet layer, plus the session opener
 * that establishes it (secure OPN, CRKSEC unwrapped under the terminal key).
 *
 * - `seal`: OPN always clear (§5.2.2); anything else DC2 + AES while a session is up, clear otherwise.
 * - `open`: DC2 answers are decrypted and checked (§5.2.2.2; a failure ends the session, "erro
 *   fatal"); clear answers are taken inside a session only where §5.2.2/§6.3.2 send them:
 *   CLO/CLX/OPN (which end the session), `ERR009` (the pinpad refused our packet and closed,
 *   §5.2.2.3), `xxx003` (the pinpad has no session: it was reset), and `xxx009` for a clear
 *   command (refused, the session holds), and a clear NTM (a notification, passed on). Any other
 *   clear answer fails the command.
 *
 * A lost session (ERR009, ST_NOSEC, an answer that does not open) is re-established by `ensure()`,
 * which SecurePinpad calls after the failure and before the next command.
 */
export class SecureChannel implements PacketLayer {
  private key: Uint8Array | undefined;
  /** The session's AES, its key schedule made once from `key`, not per packet. */
  private cipher: SessionAes | undefined;
  private recognitionValue: Recognition = 'unknown';
  private sessions = 0;
  private lastEnd: SessionEnd | undefined;
  private lostSession = false;
  private control: SessionControl | undefined;
  private reopening: Promise<void> | undefined;
  private readonly log: DriverLogger;

  constructor(
    private readonly terminalKey: TerminalKey,
    log?: DriverLogger,
  ) {
    this.log = log ?? SILENT_LOGGER;
  }

  /** The opener to pass as PinpadOptions.openSession: installs this layer and runs the secure OPN. */
  readonly openSession = async (session: SessionControl): Promise<void> => {
    if (this.key) this.end('reconnect');
    this.recognitionValue = 'unknown'; // a new connection may be another pinpad: recognise it again
    this.lostSession = false;
    this.control = session;
    session.setLayer(this);
    await this.establish(session);
  };

  get status(): SecureStatus {
    return {
      recognition: this.recognitionValue,
      secure: this.key !== undefined,
      sessions: this.sessions,
      ...(this.lastEnd ? { lastEnd: this.lastEnd } : {}),
    };
  }

  get recognition(): Recognition {
    return this.recognitionValue;
  }

  /** True after the pinpad dropped the session under us (ERR009, ST_NOSEC, an answer that did not open). */
  get lost(): boolean {
    return this.lostSession;
  }

  /**
   * Makes sure a current pinpad has a secure session before a command: waits for a reopen in
   * progress, or runs a new secure OPN when the session ended (CLO, ERR009, a reset). Does nothing
   * for a classic pinpad or before the first connection.
   */
  ensure(): Promise<void> {
    if (this.reopening) return this.reopening;
    if (this.recognitionValue !== 'abecs' || this.key || !this.control) return Promise.resolve();
    return this.reopen();
  }

  /** Ends the current session (if any) with a new secure OPN on the current connection. */
  reopen(): Promise<void> {
    const control = this.control;
    if (!control)
      return Promise.reject(new PinpadError('PINPAD_DISCONNECTED', 'OPN: the pinpad was never connected', {}));
    this.reopening ??= (async () => {
      control.setLayer(this); // whatever layer was set meanwhile, the session's packets are this channel's
      await this.establish(control);
    })().finally(() => {
      this.reopening = undefined;
    });
    return this.reopening;
  }

  /** True while a session is expected: the pinpad was recognised as current on this connection (§3.2.2). */
  private get expected(): boolean {
    return this.recognitionValue === 'abecs';
  }

  seal(data: Uint8Array, commandId: string): Uint8Array {
    if (commandRow(commandId)?.session === 'opens') return data; // OPN only in clear (§5.2.2)
    if (this.key) return sealPacket(this.cipher ?? this.key, data);
    if (!this.expected) return data; // a classic pinpad, or before the first OPN: clear traffic
    // A current pinpad whose session is gone (ERR009, xxx003, an answer that did not open, CLO):
    // nothing but OPN leaves in clear (§5.2.2, §6.3.2); the command waits for a new session or fails.
    throw new PinpadError(
      'PINPAD_DISCONNECTED',
      `${commandId}: no secure session with a current pinpad; not sent in clear (§5.2.2)`,
      { command: commandId, where: 'secure channel', reason: 'no-session' },
    );
  }

  open(data: Uint8Array): Uint8Array {
    if (isSealed(data)) {
      if (!this.key)
        throw new PinpadError('PINPAD_PROTOCOL', 'a secure (DC2) answer while no secure session is up', {
          where: 'secure channel',
          reason: 'no-session',
        });
      try {
        return openPacket(this.cipher ?? this.key, data, 'secure answer');
      } catch (e) {
        this.end('bad-answer', true);
        throw e;
      }
    }
    const id = text(data, 0, 3);
    const status = text(data, 3, 6);
    if (!this.key) return this.openWithoutSession(data, id, status);
    if (id === 'NTM') {
      // A notification in clear inside a session (some firmware sends them so): text for the
      // operator, nothing secret; passed on, the blocking command goes on (§2.3.3).
      this.log.debug({ responseId: id }, 'pinpad sent a clear notification inside the secure session');
      return data;
    }
    const session = commandRow(id)?.session;
    if (session === 'opens') this.end('opn');
    else if (session === 'closes') this.end('clo');
    else if (status === '003') this.end('nosec', true);
    else if (id === 'ERR' && status === '009') this.end('err009', true);
    else if (status !== '009') throw clearAnswer(id);
    return data;
  }

  /**
   * A clear answer with no session up. Before recognition and on a classic pinpad, clear is the
   * traffic. With a current pinpad only OPN left in clear, so only an OPN answer, an error status
   * (ERR003 to a packet sealed under the lost key, for one) or a notification's text is taken: a
   * clear `000` answer to anything else is refused, never handed to the command (§6.3.2).
   */
  private openWithoutSession(data: Uint8Array, id: string, status: string): Uint8Array {
    if (!this.expected || id === 'NTM' || commandRow(id)?.session === 'opens') return data;
    if (/^\d{3}$/.test(status) && status !== '000') return data;
    throw clearAnswer(id);
  }

  private end(why: SessionEnd, lost = false): void {
    this.key?.fill(0);
    this.key = undefined;
    this.cipher = undefined;
    this.lastEnd = why;
    if (lost) this.lostSession = true;
    this.log.info({ reason: why }, 'pinpad secure session ended');
  }

  private async establish(session: SessionControl): Promise<void> {
    const pub = { modulus: this.terminalKey.modulus, publicExponent: this.terminalKey.publicExponent };
    let answer;
    for (let attempt = 1; ; attempt++) {
      try {
        answer = await session.run(OPN_SECURE, pub);
        break;
      } catch (e) {
        // A refused secure OPN (an error status) is not an obsolete pinpad: only a bare OPN000
        // answers as one (§3.2.2). A current pinpad also answers a classic OPN with OPN000, so
        // falling back to it would take a busy pinpad for an obsolete one. Tried again, then reported.
        if (!isPinpadError(e, 'PINPAD_STATUS') || attempt >= SECURE_OPN_TRIES) {
          if (isPinpadError(e, 'PINPAD_STATUS'))
            this.log.warn({ status: e.context.status, attempts: attempt }, 'pinpad refused the secure OPN');
          throw e;
        }
        this.log.info({ status: e.context.status, attempt }, 'pinpad refused the secure OPN; trying it again');
      }
    }
    if (answer.kind === 'obsolete') {
      this.recognitionValue = 'classic';
      this.lostSession = false;
      this.log.info(
        { recognition: 'classic' },
        'pinpad answered OPN as an obsolete pinpad: no secure channel, not supported for card sales',
      );
      return;
    }
    const ksec = this.terminalKey.unwrap(answer.cryptogram);
    this.key?.fill(0);
    this.key = ksec;
    this.cipher = new SessionAes(ksec);
    this.recognitionValue = 'abecs';
    this.lostSession = false;
    this.sessions++;
    this.log.info({ recognition: 'abecs', sessions: this.sessions }, 'pinpad secure session established');
  }
}
