export { isPrinterError, type PrinterErrorCode } from './errors.js';
export { encodeText, decodeText } from './codepage.js';
export { type CommandName } from './layouts.js';
export { encodeCommand } from './command.js';
export { EscPosEncoder, qrNativeBytes, rasterBytes } from './encoder.js';
export { encodeDocument, type PrintDocument } from './document.js';
export { EscPosDecoder, decodeEscPos, type EscPosOp } from './decoder.js';
export { blankBitmap, bitmapFrom, setDot, qrBitmap } from './bitmap.js';
export {
  IDLE_STATUS,
  decodeRealtimeStatus,
  encodeRealtimeStatus,
  decodeTransmitPaperStatus,
  isRealtimeReply,
  isTransmitStatusReply,
  conditionOf,
  statusEvents,
  type PrinterStatus,
  type PrinterEvent,
} from './status.js';
export { EscPosPrinter } from './driver.js';
export { UsbPrinterTransport } from './usb-transport.js';
