export { VirtualPrinter, type VirtualPrinterOptions } from './printer.js';
export { serveVirtualPrinter, type VirtualPrinterServer } from './server.js';
export { glyph } from './font.js';
