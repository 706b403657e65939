import { deflateSync } from 'node:zlib';
import type { PrinterModel } from '../../../tables/printers/index.js';
import { CELL, glyph } from './font.js';
import type { PaperRow } from './paper.js';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit greyscale PNG of `pixels` (0 = black, 255 = white), row by row. */
export function encodeGreyPng(width: number, height: number, pixels: Uint8Array): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Dots per font dot: a 6×12 cell at scale 2 is the printer's 12×24 font A. */
const SCALE = 2;

/**
 * The paper as the printer would draw it, one dot a pixel, `printWidthDots` wide: text in font A
 * cells (12×24 dots, wider and taller with GS !), bold as a double strike, underline as a rule,
 * images and QR codes dot for dot, bar codes as a block with their text below.
 */
export function renderPaperPng(rows: readonly PaperRow[], model: PrinterModel): Uint8Array {
  const width = model.printWidthDots;
  const cellW = CELL.width * SCALE;
  const cellH = CELL.height * SCALE;
  const heights = rows.map((r) =>
    r.kind === 'text' ? cellH * r.height : r.kind === 'image' ? r.bitmap.height : 80 + cellH,
  );
  const height = Math.max(
    1,
    heights.reduce((a, b) => a + b, 0),
  );
  const px = new Uint8Array(width * height).fill(255);
  const ink = (x: number, y: number): void => {
    if (x >= 0 && y >= 0 && x < width && y < height) px[y * width + x] = 0;
  };
  const left = (used: number, align: 'left' | 'center' | 'right'): number => {
    const free = Math.max(0, width - used);
    return align === 'left' ? 0 : align === 'center' ? Math.floor(free / 2) : free;
  };
  const drawText = (text: string, x0: number, y0: number, w: number, h: number, bold: boolean): void => {
    [...text].forEach((ch, i) => {
      const g = glyph(ch);
      g.forEach((row, gy) =>
        row.forEach((on, gx) => {
          if (!on) return;
          for (let dy = 0; dy < SCALE * h; dy++) {
            for (let dx = 0; dx < SCALE * w + (bold ? 1 : 0); dx++)
              ink(x0 + i * cellW * w + gx * SCALE * w + dx, y0 + gy * SCALE * h + dy);
          }
        }),
      );
    });
  };
  let y = 0;
  rows.forEach((r, i) => {
    if (r.kind === 'text') {
      const chars = Math.min([...r.text].length, Math.floor(width / (cellW * r.width)));
      const x0 = left(chars * cellW * r.width, r.align);
      drawText([...r.text].slice(0, chars).join(''), x0, y, r.width, r.height, r.bold);
      if (r.underline) for (let x = x0; x < x0 + chars * cellW * r.width; x++) ink(x, y + cellH * r.height - 2);
    } else if (r.kind === 'image') {
      const x0 = left(r.bitmap.width, r.align);
      for (let by = 0; by < r.bitmap.height; by++) {
        for (let bx = 0; bx < r.bitmap.width; bx++)
          if ((r.bitmap.data[by * r.bitmap.bytesPerRow + (bx >> 3)]! >> (7 - (bx & 7))) & 1) ink(x0 + bx, y + by);
      }
    } else {
      const barW = Math.min(width, 200);
      const x0 = left(barW, r.align);
      for (let by = 0; by < 72; by++) for (let bx = 0; bx < barW; bx++) if (bx % 6 < 3) ink(x0 + bx, y + by);
      drawText(r.data, left([...r.data].length * cellW, r.align), y + 80, 1, 1, false);
    }
    y += heights[i]!;
  });
  return encodeGreyPng(width, height, px);
}
