/** The virtual pinpad's own reading and writing of the wire (ABECS 2.20 §2.2, §2.3, §3.1.3, §6.2). */
export {
  ACK,
  CAN,
  DC2,
  DC3,
  EOT,
  ETB,
  NAK,
  SYN,
  MAX_PKTDATA,
  MAX_CLASSIC_PKTDATA,
  linkCrc,
  writePacket,
} from './link-bytes.js';
export { PinpadFrameReader, type ReaderEvent, type RejectReason, type FrameReaderOptions } from './frame-reader.js';
export { parseCommand, isCommandFault, writeAnswer, type ParsedCommand, type CommandFault } from './command.js';
export { fitsFormat, readField, writeField, type FieldValue, type WriteSpec } from './fields.js';
export {
  readParams,
  splitParams,
  isParamFault,
  ParamFaultError,
  faultStatus,
  writeDatum,
  writeRawDatum,
  packBlocks,
  MAX_PARLEN,
  type ParamSet,
  type ParamFault,
} from './params.js';
export { readLayout, writeLayout, isLayoutFault, type LayoutFault } from './layout.js';
