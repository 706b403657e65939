/**
 * Receipt printer models and code pages as data (models.json, code-pages.json), validated once
 * when this module loads: a bad row fails every test and the daemon's start, naming the row.
 */
import { z } from 'zod';
import modelsData from './models.json' with { type: 'json' };
import codePagesData from './code-pages.json' with { type: 'json' };
import { ONCE } from '../parse-once.js';

/** The code pages omnipos can print Portuguese with. */
export const CODE_PAGE_IDS = ['cp860', 'cp850'] as const;
export type CodePageId = (typeof CODE_PAGE_IDS)[number];

const CodePageIdSchema = z.enum(CODE_PAGE_IDS);

const CodePageSchema = z.strictObject({
  name: z.string().min(1),
  /** Characters of bytes 0x80..0xFF, one per byte, all distinct. */
  high: z
    .string()
    .refine((s) => [...s].length === 128, 'must hold exactly 128 characters (bytes 0x80-0xFF)')
    .refine((s) => new Set([...s]).size === 128, 'characters must be distinct'),
});

const PrinterModelSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  vendor: z.string().min(1),
  name: z.string().min(1),
  /** Paper roll width, mm. */
  paperWidthMm: z.union([z.literal(58), z.literal(80)]),
  /** Printable dots per line (8 dots per mm at 203 dpi). */
  printWidthDots: z.number().int().min(256).max(832),
  /** Characters per line at normal size: font A and font B. */
  columns: z.strictObject({ a: z.number().int().min(24).max(64), b: z.number().int().min(24).max(80) }),
  /** ESC t n number of each code page the model has. */
  codePages: z.partialRecord(CodePageIdSchema, z.number().int().min(0).max(255)),
  defaultCodePage: CodePageIdSchema,
  cutter: z.strictObject({ full: z.boolean(), partial: z.boolean() }),
  /** Prints QR codes with GS ( k (else they go as a GS v 0 raster). */
  qrNative: z.boolean(),
  /** Prints GS v 0 raster images. */
  raster: z.boolean(),
  barcodes: z.array(z.enum(['code128', 'ean13'])),
  /** Has a drawer kick-out connector (ESC p). */
  drawer: z.boolean(),
  /** Answers DLE EOT real-time status. */
  realtimeStatus: z.boolean(),
  usb: z
    .strictObject({ vendorId: z.number().int().min(0).max(0xffff), productId: z.number().int().min(0).max(0xffff) })
    .optional(),
});

export type PrinterModel = Readonly<z.infer<typeof PrinterModelSchema>>;
export type CodePage = Readonly<z.infer<typeof CodePageSchema>>;

const ModelsFileSchema = z
  .strictObject({ $comment: z.string(), models: z.array(PrinterModelSchema).min(1) })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.models.forEach((m, i) => {
      if (seen.has(m.id))
        ctx.addIssue({ code: 'custom', path: ['models', i, 'id'], message: `duplicate model id ${m.id}` });
      seen.add(m.id);
      if (m.codePages[m.defaultCodePage] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['models', i, 'defaultCodePage'],
          message: `${m.id}: default code page ${m.defaultCodePage} is not among its code pages`,
        });
      }
      if (!m.qrNative && !m.raster)
        ctx.addIssue({
          code: 'custom',
          path: ['models', i],
          message: `${m.id}: prints QR codes neither natively nor as raster`,
        });
      if (m.columns.b < m.columns.a)
        ctx.addIssue({
          code: 'custom',
          path: ['models', i, 'columns'],
          message: `${m.id}: font B is narrower, so it has more columns than font A`,
        });
    });
  });

const CodePagesFileSchema = z.strictObject({ $comment: z.string(), cp860: CodePageSchema, cp850: CodePageSchema });

/** Validates the two files; exported so the table test can feed it broken copies. */
export function parsePrinterTables(
  models: unknown,
  codePages: unknown,
): { models: readonly PrinterModel[]; codePages: Readonly<Record<CodePageId, CodePage>> } {
  const m = ModelsFileSchema.safeParse(models, ONCE);
  if (!m.success)
    throw new Error(
      `tables/printers/models.json: ${m.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const c = CodePagesFileSchema.safeParse(codePages, ONCE);
  if (!c.success)
    throw new Error(
      `tables/printers/code-pages.json: ${c.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return {
    models: Object.freeze(m.data.models.map((x) => Object.freeze(x))),
    codePages: Object.freeze({ cp860: c.data.cp860, cp850: c.data.cp850 }),
  };
}

const parsed = parsePrinterTables(modelsData, codePagesData);

/** Every known printer model. */
export const PRINTER_MODELS: readonly PrinterModel[] = parsed.models;

/** The code pages, by id. */
export const CODE_PAGES: Readonly<Record<CodePageId, CodePage>> = parsed.codePages;

/** The model of that id, or undefined. */
export function findPrinterModel(id: string): PrinterModel | undefined {
  return PRINTER_MODELS.find((m) => m.id === id);
}

/** The model the virtual printer and the default configuration use. */
export const DEFAULT_PRINTER_MODEL_ID = 'virtual-80';
