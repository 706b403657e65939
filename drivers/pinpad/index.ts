/** The ABECS pinpad driver: the public surface for src/adapters, src/sim and the CLI. */
export {
  Pinpad,
  INFO_GIX_IDS,
  type SessionControl,
  type PinpadOptions,
  type PinpadEvents,
  type PinpadLinkEvent,
  type PinpadNotification,
  type PinpadStatus,
  type RunOptions,
  type SessionRunner,
} from './pinpad.js';
export { PinpadError, isPinpadError, isDisconnected, PINPAD_ERROR_CODES, type PinpadErrorCode } from './errors.js';
export { linkTimings, SPEC_TIMINGS, type LinkTimings } from './link/timings.js';
export { CLEAR_LAYER, isNotification, type LossReason, type PacketLayer } from './link/link.js';
export { SILENT_LOGGER, type DriverLogger } from './logger.js';
export { encodeFrame, packetCrc, wireLength } from './frame.js';
export { FrameDecoder, type LinkEvent } from './decoder.js';
export { PinpadFramer } from './framer.js';
export { crc16 } from './crc.js';
export * as control from './control.js';
export { encodeCommand, decodeCommand, encodeResponse, decodeResponse, type Response } from './codec/message.js';
export { encodeParams, decodeParams, param, paramValue, type Param } from './codec/params.js';
export { encodeLayout, decodeLayout } from './codec/layout.js';
export { encodeField, decodeField, type FieldValue } from './codec/fields.js';
export { checkResponse, isUnknownCommand, type CommandSpec } from './commands/spec.js';
export { OPN_CLASSIC, CLO, GIN, GIX, type GinResult, type GixResult } from './commands/control.js';
export { DSP, DEX, GCD, type DexOptions, type GcdRequest } from './commands/display.js';
export { infoFromGin, infoFromGix, type PinpadInfo, type KeySlots } from './commands/info.js';
export { twoLines, type TwoLineText } from './commands/text.js';
// secure channel (secure/)
export * from './secure/index.js';
// --- card commands (commands/card) ---
export * as card from './commands/card/index.js';
export {
  CARD_COMMANDS,
  CARD_LAYOUTS,
  CARD_TYPES,
  type CardType,
  type CardTypeCode,
  type TransactionType,
} from '../../tables/pinpad/card-commands.js';
