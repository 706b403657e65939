import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EscPosEncoder, qrBitmap } from '../../../drivers/printer/index.js';
import { findPrinterModel } from '../../../tables/printers/index.js';
import { qrModules, renderQrBitmap, renderQrSvg, renderQrText } from '../../../src/qr/render.js';
import { renderQrPng } from '../../../src/qr/render-png.js';
import { parseQr } from '../../../src/qr/index.js';
import { VirtualPrinter } from '../../../src/sim/printer/index.js';
import vectors from '../../vectors/qr/published.json' with { type: 'json' };
import { decodeQrBitmap, decodeQrRgba } from '../../helpers/qr-decode.js';
import { decodePng } from '../../helpers/png-decode.js';
import { fcSeed } from '../../helpers/escpos-sources.js';

const seed = fcSeed('qr render');
/** Published codes (BCB Pix manual, pix-utils README, EMVCo MPM appendix — test/vectors/qr/published.json says where). */
const CODES: { text: string; source: string; kind: 'pix' | 'mpm' }[] = [
  ...vectors.pix.map((v) => ({ text: v.text, source: v.source, kind: 'pix' as const })),
  ...vectors.mpm.slice(0, 2).map((v) => ({ text: v.text, source: v.source, kind: 'mpm' as const })),
];

/** Turns terminal half blocks back into a one-bit image (3 dots a module) for the decoder. */
function textToRgba(text: string): { rgba: Uint8ClampedArray; width: number; height: number } {
  const rows = text.trimEnd().split('\n');
  const cols = Math.max(...rows.map((r) => [...r].length));
  const s = 3;
  const width = cols * s;
  const height = rows.length * 2 * s;
  const rgba = new Uint8ClampedArray(width * height * 4).fill(255);
  rows.forEach((row, ry) => {
    [...row].forEach((ch, x) => {
      const top = ch === '█' || ch === '▀';
      const bottom = ch === '█' || ch === '▄';
      for (const [on, dy] of [
        [top, 0],
        [bottom, 1],
      ] as const) {
        if (!on) continue;
        for (let yy = 0; yy < s; yy++)
          for (let xx = 0; xx < s; xx++) {
            const i = (((ry * 2 + dy) * s + yy) * width + x * s + xx) * 4;
            rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
          }
      }
    });
  });
  return { rgba, width, height };
}

function svgToRgba(svg: string): { rgba: Uint8ClampedArray; width: number; height: number } {
  const n = Number(/viewBox="0 0 (\d+) /.exec(svg)![1]);
  const s = 3;
  const rgba = new Uint8ClampedArray(n * s * n * s * 4).fill(255);
  for (const [, x, y] of svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let yy = 0; yy < s; yy++)
      for (let xx = 0; xx < s; xx++) {
        const i = ((Number(y) * s + yy) * n * s + Number(x) * s + xx) * 4;
        rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
      }
  }
  return { rgba, width: n * s, height: n * s };
}

describe('QR rendering decodes back to the exact string (jsQR, an independent decoder) and parses with the codec', () => {
  it.each(CODES)('$kind: $source', async ({ text, kind }) => {
    const t = textToRgba(renderQrText(text));
    expect(decodeQrRgba(t.rgba, t.width, t.height)).toBe(text);
    const v = svgToRgba(renderQrSvg(text));
    expect(decodeQrRgba(v.rgba, v.width, v.height)).toBe(text);
    const png = decodePng(await renderQrPng(text, { scale: 3 }));
    expect(decodeQrRgba(png.rgba, png.width, png.height)).toBe(text);
    expect(decodeQrBitmap(renderQrBitmap(text, { scale: 3 }))).toBe(text);
    if (kind === 'pix') expect(parseQr(decodeQrBitmap(renderQrBitmap(text))!).model).toBe('pix');
  });

  it("the printed QR (GS ( k and GS v 0 raster) decodes back from the virtual printer's paper", () => {
    const text = CODES[1]!.text;
    for (const id of ['virtual-80', 'virtual-58'] as const) {
      const p = new VirtualPrinter({ model: findPrinterModel(id)! });
      p.write(new EscPosEncoder(p.model).initialize().qr(text, { size: 4 }).cut().encode());
      expect(decodeQrBitmap(p.lastReceipt!.images[0]!.bitmap)).toBe(text);
    }
  });

  it("the driver's raster and the screen renderer draw the same matrix", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (s) => {
        const a = qrBitmap(s, { scale: 1, margin: 0 });
        const b = renderQrBitmap(s, { scale: 1, margin: 0 });
        expect(Buffer.from(a.data).equals(Buffer.from(b.data))).toBe(true);
      }),
      { numRuns: 1000, seed },
    );
  });

  it('fits a small display (a pinpad loads PNG images): 128 pixels at most, and it still decodes', async () => {
    const text = CODES[0]!.text;
    const png = decodePng(await renderQrPng(text, { scale: 8, maxWidth: 128, margin: 2 }));
    expect(png.width).toBeLessThanOrEqual(128);
    expect(decodeQrRgba(png.rgba, png.width, png.height)).toBe(text);
    await expect(renderQrPng('z'.repeat(1500), { maxWidth: 64 })).rejects.toMatchObject({ code: 'QR_INVALID' });
  });

  it('fits the paper: a long code on 384 dots shrinks its modules; one too big is refused (QR_INVALID)', () => {
    const long = 'x'.repeat(600);
    const m = qrModules(long);
    const b = renderQrBitmap(long, { scale: 8, maxWidth: 384 });
    expect(b.width).toBeLessThanOrEqual(384);
    expect(b.width % (m.size + 8)).toBe(0);
    expect(() => renderQrBitmap('y'.repeat(2000), { maxWidth: 100 })).toThrowError(
      expect.objectContaining({ code: 'QR_INVALID' }) as Error,
    );
    expect(() => renderQrText('')).toThrowError(expect.objectContaining({ code: 'QR_INVALID' }) as Error);
  });
});
