import { commandIds } from '../../../../../tables/pinpad/commands.js';
import { PinpadError } from '../../../errors.js';
import type { RunOptions } from '../../../pinpad.js';
import { isUnknownCommand, type CommandSpec } from '../../spec.js';

/** What the classic flow needs of the driver: Pinpad or SecurePinpad (its recognition, when it has one). */
export interface ClassicRunner {
  run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: RunOptions): Promise<Res>;
  on?(event: 'notification', listener: (n: { command: string; text: string }) => void): unknown;
  off?(event: 'notification', listener: (n: { command: string; text: string }) => void): unknown;
  readonly secure?: { readonly recognition?: string };
}

/**
 * Why a classic pinpad sells no card. It answers OPN as an obsolete pinpad, or a current command as
 * unknown: then the terminal "não poderá usar Comandos Abecs" (ABECS 2.20 §3.2.2), and EBX, the one
 * command that encrypts a block under the DUKPT data key, is an Abecs command (§3.1.3, §3.3.6). Its own
 * card read, GCR, hands the terminal the tracks and the PAN in clear (§3.6.1); ENB and the "PAN
 * Criptografado" mode (DWK, §5.3) use keys the terminal holds or MK/WK, not DUKPT; and the acquirer
 * takes track data only as Dukpt3DesCBC. No card data in clear at the terminal: no card sale.
 */
export const CLASSIC_TRACK_REFUSAL =
  'this pinpad answers only the classic commands: it takes no Abecs command (ABECS §3.2.2), so no EBX (§3.1.3, §3.3.6) to encrypt a track under the DUKPT data key, ' +
  'and GCR gives the track in clear (§3.6.1); ENB and DWK use MK/WK or a key the terminal holds, not DUKPT, and the acquirer takes track data only as Dukpt3DesCBC: card sales refused';

/** The commands of a card sale (a card, a PIN, a typed number or the tables: the table's `access`), refused on a classic pinpad. */
const SALE_COMMANDS: ReadonlySet<string> = commandIds((r) => r.access !== 'any');

/**
 * The card port's pinpad on a pinpad of either kind. A current pinpad runs every command as given. A
 * classic one — recognised so by its OPN answer (SecurePinpad, §3.2.2) or answering GCX as an unknown
 * command (ERR010, §2.3.4) — is refused every card-sale command by name (PINPAD_UNSUPPORTED,
 * CLASSIC_TRACK_REFUSAL) before a byte of it is sent: no card is asked, no Abecs command probed;
 * display, information and the end of the session (CLO) still run.
 */
export class ClassicCardPinpad {
  readonly #inner: ClassicRunner;
  #learnedClassic = false;

  constructor(inner: ClassicRunner) {
    this.#inner = inner;
  }

  on(event: 'notification', listener: (n: { command: string; text: string }) => void): this {
    this.#inner.on?.(event, listener);
    return this;
  }

  off(event: 'notification', listener: (n: { command: string; text: string }) => void): this {
    this.#inner.off?.(event, listener);
    return this;
  }

  /** True when the pinpad is known to take only the classic commands. */
  get classic(): boolean {
    const r = this.#inner.secure?.recognition;
    if (r === 'classic') return true;
    if (r === 'abecs') return false;
    return this.#learnedClassic;
  }

  async run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts: RunOptions = {}): Promise<Res> {
    if (!this.classic) {
      if (spec.id !== 'GCX') return this.#inner.run(spec, req, opts);
      try {
        return await this.#inner.run(spec, req, opts);
      } catch (e) {
        if (!isUnknownCommand(e)) throw e;
        this.#learnedClassic = true;
      }
    }
    if (SALE_COMMANDS.has(spec.id))
      throw new PinpadError('PINPAD_UNSUPPORTED', `${spec.id}: ${CLASSIC_TRACK_REFUSAL}`, {
        command: spec.id,
        reason: 'classic-track-in-clear',
      });
    return this.#inner.run(spec, req, opts);
  }
}
