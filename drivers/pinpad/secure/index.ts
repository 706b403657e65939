/** The secure channel of ABECS 2.20 §5.2: secure OPN, the DC2/AES packet layer, and the Pinpad that uses them. */
export { SecurePinpad, CARD_SALE_COMMANDS, OBSOLETE_CARD_COMMANDS, type SecurePinpadOptions } from './secure-pinpad.js';
export { SecureChannel, type Recognition, type SecureStatus, type SessionEnd } from './channel.js';
export {
  sealPacket,
  openPacket,
  isSealed,
  KSEC_LENGTH,
  MAX_CLRDATA,
  type OpenFailure,
  type PacketKey,
} from './envelope.js';
export { SessionAes } from './packet-aes.js';
export {
  OPN_SECURE,
  SECURE_OPN_LAYOUT,
  encodeSecureOpnBlock,
  decodeSecureOpnBlock,
  encodeSecureOpnAnswer,
  type OpnPublicKey,
  type SecureOpnResult,
} from './opn.js';
export {
  terminalKeyFromPem,
  terminalKeyFromComponents,
  MODULUS_BYTES,
  MAX_EXPONENT_BYTES,
  type TerminalKey,
} from './rsa.js';
