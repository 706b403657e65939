import { card, type CommandSpec, type RunOptions } from '../../drivers/pinpad/index.js';
import { PinpadCardPort, type CardPinpad, type PinpadCardOptions } from './pinpad-card.js';

/**
 * The pinpad as a void reads the card: GCX and GOX carry transaction type 20h (refund,
 * `SPE_TRNTYPE`, ABECS §3.1.3.1), so the card's 9C says refund; every other command passes as is.
 * The chip void's sequence is GCX and GOX with type 20h, then FCX and RMC (docs/pinpad.md, "Card
 * data and the sale path").
 */
export function refundPinpad(pinpad: CardPinpad): CardPinpad {
  return {
    run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: RunOptions): Promise<Res> {
      const refund = (spec as unknown) === card.GCX || (spec as unknown) === card.GOX;
      return pinpad.run(spec, refund ? { ...req, transactionType: 'refund' } : req, opts);
    },
  };
}

/** The card port a void reads the customer's card with: the sale's port, on the refund pinpad. */
export function refundCardPort(options: PinpadCardOptions): PinpadCardPort {
  return new PinpadCardPort({ ...options, pinpad: refundPinpad(options.pinpad) });
}
