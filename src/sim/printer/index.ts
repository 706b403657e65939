export { VirtualPrinter, type VirtualPrinterOptions, type VirtualPrinterFaults } from './printer.js';
export { serveVirtualPrinter, type VirtualPrinterServer } from './server.js';
export { renderRows, makeReceipt, type PaperRow, type PrintedReceipt } from './paper.js';
export { renderPaperPng, encodeGreyPng } from './png.js';
export { glyph } from './font.js';
