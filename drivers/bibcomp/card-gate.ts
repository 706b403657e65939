import { PinpadError, type CommandSpec, type RunOptions } from '../pinpad/index.js';
import { CARD_SALE_COMMANDS, CARD_SALE_REFUSAL, TYPED_PAN_COMMANDS, TYPED_PAN_REFUSAL } from './reach.js';

/** What the card port runs commands on (a SecurePinpad, or the classic card flow on one). */
export interface CardRunner {
  run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: RunOptions): Promise<Res>;
  on?(event: 'notification', listener: (n: { command: string; text: string }) => void): unknown;
  off?(event: 'notification', listener: (n: { command: string; text: string }) => void): unknown;
}

/**
 * The card port's commands on a pinpad behind a BibComp library: a card read (GCX, GTK, GOX, FCX,
 * GED) or a typed card number (GCD, EBX) is refused by name — PINPAD_UNSUPPORTED with the
 * specification's reason (reach.ts) — before anything reaches the library; everything else runs.
 */
export class BibcompCardGate implements CardRunner {
  constructor(private readonly inner: CardRunner) {}

  on(event: 'notification', listener: (n: { command: string; text: string }) => void): this {
    this.inner.on?.(event, listener);
    return this;
  }

  off(event: 'notification', listener: (n: { command: string; text: string }) => void): this {
    this.inner.off?.(event, listener);
    return this;
  }

  run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: RunOptions): Promise<Res> {
    const reason = CARD_SALE_COMMANDS.has(spec.id)
      ? CARD_SALE_REFUSAL
      : TYPED_PAN_COMMANDS.has(spec.id)
        ? TYPED_PAN_REFUSAL
        : undefined;
    if (reason)
      return Promise.reject(
        new PinpadError('PINPAD_UNSUPPORTED', `${spec.id}: ${reason}`, { command: spec.id, transport: 'bibcomp' }),
      );
    return this.inner.run(spec, req, opts);
  }
}
