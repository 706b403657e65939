import { describe, expect, it } from 'vitest';
import {
  CODE_PAGES,
  DEFAULT_PRINTER_MODEL_ID,
  findPrinterModel,
  parsePrinterTables,
  PRINTER_MODELS,
} from '../../../../tables/printers/index.js';
import models from '../../../../tables/printers/models.json' with { type: 'json' };
import codePages from '../../../../tables/printers/code-pages.json' with { type: 'json' };

type Json = Record<string, unknown>;
const clone = <T>(v: T): T => structuredClone(v);

describe('tables/printers', () => {
  it('loads and validates every model and code page', () => {
    expect(PRINTER_MODELS.length).toBeGreaterThanOrEqual(5);
    expect(findPrinterModel(DEFAULT_PRINTER_MODEL_ID)).toBeDefined();
    expect(findPrinterModel('nope')).toBeUndefined();
    expect([...CODE_PAGES.cp860.high]).toHaveLength(128);
  });

  it('covers the three receipt widths (32, 42 and 48 columns) and both QR paths', () => {
    expect(new Set(PRINTER_MODELS.map((m) => m.columns.a))).toEqual(new Set([32, 42, 48]));
    expect(PRINTER_MODELS.some((m) => m.qrNative)).toBe(true);
    expect(PRINTER_MODELS.some((m) => !m.qrNative && m.raster)).toBe(true);
  });

  it('font A columns are what the print width gives at 12 dots per character', () => {
    for (const m of PRINTER_MODELS) expect([m.id, Math.floor(m.printWidthDots / 12)]).toEqual([m.id, m.columns.a]);
  });

  it('every model selects a Portuguese code page it has', () => {
    for (const m of PRINTER_MODELS) expect(m.codePages[m.defaultCodePage]).toBeTypeOf('number');
  });

  /** Broken copies the schema must refuse, each with the message that names the fault. */
  const BROKEN: [string, (m: Json, c: Json) => void, RegExp][] = [
    ['a duplicate id', (m) => (m.models as Json[]).push(clone((m.models as Json[])[0]!)), /duplicate model id/],
    [
      'a default code page the model lacks',
      (m) => ((m.models as Json[])[0]!.codePages = { cp850: 2 }),
      /default code page cp860/,
    ],
    [
      'no way to print a QR',
      (m) => Object.assign((m.models as Json[])[0]!, { qrNative: false, raster: false }),
      /neither natively nor as raster/,
    ],
    ['an unknown field', (m) => ((m.models as Json[])[0]!.colour = true), /colour|Unrecognized/i],
    ['a 70 mm roll', (m) => ((m.models as Json[])[0]!.paperWidthMm = 70), /paperWidthMm/],
    [
      'a code page of 127 characters',
      (_m, c) => ((c.cp860 as Json).high = ((c.cp860 as Json).high as string).slice(1)),
      /exactly 128/,
    ],
    ['a code page with a repeated character', (_m, c) => ((c.cp850 as Json).high = 'A'.repeat(128)), /distinct/],
  ];

  it.each(BROKEN)('refuses %s', (_what, breakIt, message) => {
    const m = clone(models) as unknown as Json;
    const c = clone(codePages) as unknown as Json;
    breakIt(m, c);
    expect(() => parsePrinterTables(m, c)).toThrow(message);
  });
});
