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
  terminal: {
    subordinatedMerchantId: string;
    terminalId: string;
    softDescriptor?: string | undefined;
    paymentFacilitator?: FacilitatorConfig | undefined;
  },
  pinpad: () => PinpadIdentity | undefined,
): TerminalIdentity {
  const facilitator = terminal.paymentFacilitator;
  return {
    subordinatedMerchantId: terminal.subordinatedMerchantId,
    terminalId: terminal.terminalId,
    softDescriptor: terminal.softDescriptor ?? SANDBOX_SOFT_DESCRIPTOR,
    ...(facilitator ? { paymentFacilitator: paymentFacilitator(facilitator) } : {}),
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

/** `terminal.paymentFacilitator` as the configuration holds it. */
export interface FacilitatorConfig {
  establishmentCode: string;
  terminalAcquirerId: string;
  subEstablishment: {
    establishmentCode: string;
    mcc: string;
    address: string;
    city: string;
    state: string;
    postalCode: string;
    phoneNumber: string;
    countryCode: string;
    documentType: string;
    documentNumber: string;
  };
}

/** The configuration's facilitator block as the sale request's `PaymentFacilitator` node (pt:2248-2259). */
export function paymentFacilitator(c: FacilitatorConfig): NonNullable<TerminalIdentity['paymentFacilitator']> {
  const s = c.subEstablishment;
  return {
    EstablishmentCode: c.establishmentCode,
    TerminalAcquirerId: c.terminalAcquirerId,
    SubEstablishment: {
      EstablishmentCode: s.establishmentCode,
      Mcc: s.mcc,
      Address: s.address,
      City: s.city,
      State: s.state,
      PostalCode: s.postalCode,
      PhoneNumber: s.phoneNumber,
      CountryCode: s.countryCode,
      DocumentType: s.documentType,
      DocumentNumber: s.documentNumber,
    },
  };
}
