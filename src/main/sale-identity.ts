import type { TerminalIdentity } from '../acquirer/index.js';
import type { PinpadIdentity } from './pinpad-key-slots.js';

/** What a sale's PinPadInformation says before the pinpad has told its serial number (at most 20 characters). */
export const UNREAD_SERIAL = 'NAO-LIDO';

/** The sandbox's statement text; outside the sandbox `terminal.softDescriptor` is required at start. */
export const SANDBOX_SOFT_DESCRIPTOR = 'OMNIPOS';

/**
 * The terminal as a sale request names it: the configured merchant and terminal, the statement
 * text the merchant configured (`terminal.softDescriptor`), and the pinpad
 * that really reads the card — its serial number and card readers as its GIX/GIN answer said
 * (read once by the daemon at start), not a constant.
 */
export function saleIdentity(
  terminal: { subordinatedMerchantId: string; terminalId: string; softDescriptor?: string | undefined },
  pinpad: () => PinpadIdentity | undefined,
): TerminalIdentity {
  return {
    subordinatedMerchantId: terminal.subordinatedMerchantId,
    terminalId: terminal.terminalId,
    softDescriptor: terminal.softDescriptor ?? SANDBOX_SOFT_DESCRIPTOR,
    get pinpadSerial() {
      return pinpad()?.serialNumber || UNREAD_SERIAL;
    },
    get physicalCharacteristics() {
      return pinpad()?.contactless === false
        ? 'PinPadWithChipReaderWithoutSamModule'
        : 'PinPadWithChipReaderWithoutSamAndContactless';
    },
  };
}
