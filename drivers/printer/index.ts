export { PrinterError, isPrinterError, PRINTER_ERROR_CODES, type PrinterErrorCode } from './errors.js';
export { encodeText, decodeText, printedLength } from './codepage.js';
export {
  LAYOUTS,
  QR_FN,
  QR_ECC,
  QR_CN,
  BARCODE_SYSTEM,
  type CommandName,
  type CommandLayout,
  type QrEcc,
} from './layouts.js';
export { encodeCommand, concatBytes } from './command.js';
export { EscPosEncoder, qrNativeBytes, qrFunction, rasterBytes, type Align, type QrOptions } from './encoder.js';
export { encodeDocument, type PrintDocument, type PrintOp } from './document.js';
export { EscPosDecoder, decodeEscPos, MAX_COMMAND_DATA, type EscPosOp } from './decoder.js';
export { blankBitmap, bitmapFrom, dotAt, setDot, qrBitmap, qrMatrix, type Bitmap, type QrMatrix } from './bitmap.js';
export {
  REALTIME_BITS,
  IDLE_STATUS,
  decodeRealtimeStatus,
  encodeRealtimeStatus,
  decodeTransmitPaperStatus,
  encodeTransmitPaperStatus,
  isRealtimeReply,
  isTransmitStatusReply,
  conditionOf,
  statusEvents,
  type PrinterStatus,
  type PrinterCondition,
  type PrinterEvent,
} from './status.js';
export { EscPosPrinter, type EscPosPrinterOptions, type PrintResult } from './driver.js';
export { UsbPrinterTransport, type UsbPrinterOptions } from './usb-transport.js';
