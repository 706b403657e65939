import { SESSION_COMMAND_IDS, commandIds, commandRow } from '../../../tables/pinpad/commands.js';
import type { CommandSpec } from '../commands/spec.js';
import { PinpadError, isPinpadError } from '../errors.js';
import { Pinpad, type PinpadOptions, type RunOptions } from '../pinpad.js';
import { SecureChannel, type SecureStatus } from './channel.js';
import type { TerminalKey } from './rsa.js';
import { Turns } from './turns.js';

/**
 * Commands that read a card, a PIN or a typed card number, or load the card tables (the table's
 * `access`, tables/pinpad/commands.ts). The current ones only for a pinpad recognised by secure OPN
 * (§3.2.2); the obsolete ones never to such a pinpad (§3.1.2: "O SPE não deve utilizar um comando
 * obsoleto para um pinpad que reconhecidamente segue esta especificação"). A pinpad that answers OPN
 * as an obsolete one is sent no Abecs command at all (§3.2.2, EBX neither), only the classic ones: it
 * sells no card (`card.ClassicCardPinpad` refuses card sales by name).
 */
export const CARD_SALE_COMMANDS: ReadonlySet<string> = commandIds((r) => r.access !== 'any');

/** The obsolete card commands (§3.1.2): for a pinpad not recognised as current only. */
export const OBSOLETE_CARD_COMMANDS: ReadonlySet<string> = commandIds((r) => r.access === 'classic-only');
/** What a pinpad recognised as obsolete is refused of CARD_SALE_COMMANDS. */
const SECURE_ONLY_COMMANDS: ReadonlySet<string> = commandIds((r) => r.access === 'secure');

/** ERR009 or xxx003 (§6.3.2): the pinpad refused a packet for the secure session, and ran nothing. */
function isSessionRefusal(e: unknown): boolean {
  if (!isPinpadError(e, 'PINPAD_STATUS')) return false;
  const status = Number(e.context.status);
  return status === 3 || (status === 9 && e.context.responseId === 'ERR');
}

/** A command that waited for a session that did not come back: failed unsent, naming it, the re-opening's error as cause. */
function noSession(command: string, cause: unknown): PinpadError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new PinpadError(
    'PINPAD_DISCONNECTED',
    `${command}: no secure session (the new secure OPN failed: ${why}); not sent`,
    { command, reason: 'no-session' },
    { cause },
  );
}

/** Commands that run without a secure session (they open or close one: the table's `session`). */
const SESSION_COMMANDS = SESSION_COMMAND_IDS;

export interface SecurePinpadOptions extends Omit<PinpadOptions, 'openSession'> {
  /** The terminal's RSA key pair (src/adapters/pinpad-keys.ts loads it from the state directory). */
  terminalKey: TerminalKey;
}

/**
 * The Pinpad driver with the secure channel of ABECS 2.20 §5.2: every (re)connect opens with a
 * secure OPN; a current pinpad's commands then travel as DC2 + AES under KSEC. Before each
 * command it re-establishes a session the pinpad dropped (CLO, ERR009, a reset) and, after a
 * command that lost it, opens a new one before reporting the failure. A pinpad that answers OPN
 * as an obsolete one is served for information and display; Abecs commands and card commands to it
 * fail with PINPAD_UNSUPPORTED before a byte is sent.
 */
export class SecurePinpad extends Pinpad {
  readonly channel: SecureChannel;
  /** Commands other than OPN run one at a time, so that a re-opened session goes before those waiting. */
  private readonly turns = new Turns();

  constructor(opts: SecurePinpadOptions) {
    const { terminalKey, ...rest } = opts;
    const channel = new SecureChannel(terminalKey, opts.log);
    super({ ...rest, openSession: channel.openSession });
    this.channel = channel;
  }

  /** Recognition and whether a secure session is up (never the key). */
  get secure(): SecureStatus {
    return this.channel.status;
  }

  /** True when the pinpad may be sent card commands (recognised by secure OPN, §3.2.2). */
  get cardSales(): boolean {
    return this.channel.recognition === 'abecs';
  }

  override async run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts: RunOptions = {}): Promise<Res> {
    if (this.channel.recognition === 'abecs' && OBSOLETE_CARD_COMMANDS.has(spec.id)) {
      throw new PinpadError(
        'PINPAD_UNSUPPORTED',
        `${spec.id}: an obsolete command, not sent to a pinpad recognised as current (§3.1.2)`,
        { command: spec.id, recognition: 'abecs' },
      );
    }
    if (this.channel.recognition === 'classic' && SECURE_ONLY_COMMANDS.has(spec.id)) {
      throw new PinpadError(
        'PINPAD_UNSUPPORTED',
        `${spec.id}: the pinpad answered OPN as an obsolete pinpad (no secure channel): not supported for card sales`,
        { command: spec.id, recognition: 'classic' },
      );
    }
    if (this.channel.recognition === 'classic' && commandRow(spec.id)?.session === 'secure') {
      throw new PinpadError(
        'PINPAD_UNSUPPORTED',
        `${spec.id}: an Abecs command; the pinpad answered OPN as an obsolete pinpad, which takes none (§3.2.2)`,
        { command: spec.id, recognition: 'classic', reason: 'abecs-command' },
      );
    }
    if (commandRow(spec.id)?.session === 'opens') return super.run(spec, req, opts);
    const release = await this.turns.take(spec.id, opts.signal);
    try {
      return await this.runInSession(spec, req, opts);
    } finally {
      release();
    }
  }

  /**
   * Runs a command in its turn: a session first when a current pinpad has none (CLO ended it, or a
   * re-opening failed before), then the command; when the pinpad dropped the session under it, a new
   * one before the failure is reported, and a command the pinpad refused for the session (it ran
   * nothing) once more under the new key.
   */
  private async runInSession<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts: RunOptions): Promise<Res> {
    if (this.status === 'connected')
      await this.channel.ensure().catch((e: unknown) => Promise.reject(noSession(spec.id, e)));
    try {
      return await super.run(spec, req, opts);
    } catch (e) {
      if (!this.channel.lost || this.status !== 'connected') throw e;
      let reopened = true;
      await this.channel.ensure().catch(() => (reopened = false));
      // The pinpad refused the packet for the session (ERR009: it did not open; xxx003: no session,
      // a reset): nothing ran, so the command goes once more under the new session (§5.2.2.3).
      if (!reopened || !isSessionRefusal(e) || SESSION_COMMANDS.has(spec.id) || opts.signal?.aborted) throw e;
      return super.run(spec, req, opts);
    }
  }

  /** A fresh secure session (OPN is never sent encrypted, §6.4.1); a classic OPN for a classic pinpad. */
  override async open(opts?: RunOptions): Promise<void> {
    if (this.channel.recognition === 'classic') return super.open(opts);
    if (this.status !== 'connected') return super.open(opts);
    const release = await this.turns.take('OPN', opts?.signal);
    try {
      await this.channel.reopen();
    } finally {
      release();
    }
  }
}
