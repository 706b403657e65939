import type { TerminalIdentity } from '../adapters/acquirer-sale.js';
import type { PinpadIdentity } from './pinpad-key-slots.js';

/** What a sale's PinPadInformation says before the pinpad has told its serial number (at most 20 characters). */
export const UNREAD_SERIAL = 'NAO-LIDO';

/**
 * The terminal as a sale request names it: the configured merchant and terminal, and the pinpad
 * that really reads the card — its serial number and card readers as its GIX/GIN answer said
 * (read once by the daemon at start), not a constant.
 */
export function saleIdentity(
  terminal: { subordinatedMerchantId: string; terminalId: string },
  pinpad: () => PinpadIdentity | undefined,
): TerminalIdentity {
  return {
    subordinatedMerchantId: terminal.subordinatedMerchantId,
    terminalId: terminal.terminalId,
    softDescriptor: 'OMNIPOS',
    get pinpadSerial() {
      return pinpad()?.serialNumber || UNREAD_SERIAL;
    },
    get physicalCharacteristics() {
      return pinpad()?.contactless === false ? 'PinPadWithChipReaderWithoutSamModule' : 'PinPadWithChipReaderWithoutSamAndContactless';
    },
  };
}
