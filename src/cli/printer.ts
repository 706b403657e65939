import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  conditionOf,
  DEFAULT_REAL_PRINTER_MODEL_ID,
  encodeDocument,
  openPrinterTarget,
  withPrinterSession,
  type PrintDocument,
  type PrinterDeviceConfig,
  type PrinterStatus,
  type PrinterTarget,
} from '../adapters/index.js';
import {
  DEFAULT_PRINTER_MODEL_ID,
  findPrinterModel,
  PRINTER_MODELS,
  type PrinterModel,
} from '../../tables/printers/index.js';
import { loadConfig } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { serveVirtualPrinter, VirtualPrinter } from '../sim/index.js';
import { printJson, type CliContext, type Command } from './context.js';
import { hostPortOption, intOption } from './options.js';

const OPTIONS = {
  tcp: { type: 'string' },
  serial: { type: 'string' },
  baud: { type: 'string' },
  usb: { type: 'string' },
  model: { type: 'string' },
  config: { type: 'string' },
  fault: { type: 'string' },
  png: { type: 'string' },
  json: { type: 'boolean' },
} as const;

const TARGET_USAGE = `  --tcp HOST:PORT   a network printer's raw port (usually 9100)
  --serial PATH     a serial printer (--baud N, default 9600)
  --usb VID:PID     a USB printer-class device, ids in hex (e.g. 04b8:0e15)
  --model ID        the printer model in tables/printers (default ${DEFAULT_PRINTER_MODEL_ID} for the virtual
                    printer, ${DEFAULT_REAL_PRINTER_MODEL_ID} for a real one, as the daemon): ${PRINTER_MODELS.map((m) => m.id).join(', ')}
  --config PATH     read the printer from this configuration (default: the configured printer,
                    the embedded virtual printer unless configured otherwise)
  --fault F         virtual printer only: start with paper-out, cover-open or offline
  --png FILE        virtual printer only (printer test): also write the paper as a PNG
  --json            JSON output`;

type Target = PrinterTarget;

function usbIds(v: string): { vendorId: string; productId: string } {
  const m = /^([0-9a-fA-F]{4}):([0-9a-fA-F]{4})$/.exec(v);
  if (!m)
    throw new OmniposError('INVALID_ARGUMENT', `--usb: expected VID:PID in hex, got ${JSON.stringify(v)}`, {
      option: 'usb',
    });
  return { vendorId: m[1]!, productId: m[2]! };
}

function faultOf(fault: string | undefined): ((sim: VirtualPrinter) => void) | undefined {
  if (fault === undefined) return undefined;
  if (fault === 'paper-out') return (sim) => sim.loadPaper(0);
  if (fault === 'cover-open') return (sim) => sim.setFaults({ coverOpen: true });
  if (fault === 'offline') return (sim) => sim.setFaults({ offline: true });
  throw new OmniposError(
    'INVALID_ARGUMENT',
    `--fault: expected paper-out, cover-open or offline, got ${JSON.stringify(fault)}`,
    { option: 'fault' },
  );
}

/**
 * --tcp, --serial, --usb, or the configured printer (the embedded virtual printer by default),
 * built by the daemon's own factory (src/adapters/devices.ts): a command reaches the printers the
 * daemon runs, as the same model unless --model names another.
 */
export async function resolveTarget(
  v: { tcp?: string; serial?: string; baud?: string; usb?: string; model?: string; config?: string; fault?: string },
  ctx: CliContext,
): Promise<Target> {
  const model = v.model !== undefined ? findPrinterModel(v.model) : undefined;
  if (v.model !== undefined && !model)
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `--model: no printer model ${JSON.stringify(v.model)} in tables/printers`,
      { option: 'model' },
    );
  if (v.fault !== undefined && (v.tcp || v.serial || v.usb))
    throw new OmniposError('INVALID_ARGUMENT', '--fault applies to the virtual printer only', { option: 'fault' });
  const fault = faultOf(v.fault);
  const opts = { ...(model ? { model } : {}), ...(fault ? { beforeVirtualStart: fault } : {}) };
  let device: PrinterDeviceConfig;
  if (v.tcp) device = { kind: 'tcp', ...hostPortOption(v.tcp) };
  else if (v.serial) {
    const baudRate = v.baud === undefined ? 9600 : Number(v.baud);
    if (!Number.isInteger(baudRate) || baudRate < 1200 || baudRate > 921600)
      throw new OmniposError('INVALID_ARGUMENT', `--baud: expected 1200..921600, got ${JSON.stringify(v.baud)}`, {
        option: 'baud',
      });
    device = { kind: 'serial', path: v.serial, baudRate };
  } else if (v.usb) device = { kind: 'usb', ...usbIds(v.usb) };
  else device = loadConfig({ ...(v.config ? { path: v.config } : {}), env: ctx.env }).values.printer;
  const target = await openPrinterTarget(device, opts);
  if (!target)
    throw new OmniposError('PRINTER_NOT_FOUND', 'the configuration has no printer (printer.kind is "none")', {});
  return target;
}

function statusLines(s: PrinterStatus): string {
  const flags = (Object.entries(s) as [keyof PrinterStatus, boolean][])
    .filter(([k, v]) => (k === 'online' ? !v : v))
    .map(([k]) => (k === 'online' ? 'offline' : k));
  return `condition  ${conditionOf(s)}\nflags      ${flags.length ? flags.join(' ') : 'none'}\n`;
}

export const printerStatus: Command = {
  path: ['printer', 'status'],
  summary: "read the printer's real-time status (paper, cover, errors)",
  usage: `omnipos printer status [--tcp HOST:PORT | --serial PATH | --usb VID:PID] [--model ID] [--json]

Asks the printer for its four real-time statuses (DLE EOT 1-4) and says what stops it from
printing, if anything. Exits 0 when it is idle and ready, 3 when it is not (or does not answer).
${TARGET_USAGE}

Example:
  omnipos printer status --tcp 192.168.0.50:9100 --json`,
  async run(args: string[], ctx: CliContext) {
    const { values } = parseArgs({ args, options: OPTIONS, strict: true });
    const target = await resolveTarget(values, ctx);
    const status = await withPrinterSession(target, (p) => p.status());
    const condition = conditionOf(status);
    if (values.json) printJson(ctx, { printer: target.description, model: target.model.id, condition, status });
    else ctx.out(`printer    ${target.description} (${target.model.id})\n${statusLines(status)}`);
    return condition === 'idle' ? 0 : 3;
  },
};

/** The test page: the model, a column ruler, Portuguese text in the code page, a barcode, a QR code, a cut. */
export function testPage(model: PrinterModel, where: string): PrintDocument {
  const cols = model.columns.a;
  const ruler = Array.from({ length: cols }, (_, i) => String((i + 1) % 10)).join('');
  return [
    { op: 'text', text: 'OMNIPOS - TESTE DE IMPRESSORA', align: 'center', bold: true },
    { op: 'text', text: `${model.vendor} ${model.name}`, align: 'center' },
    { op: 'text', text: where, align: 'center' },
    { op: 'text', text: ruler },
    { op: 'text', text: `${cols} colunas, página ${model.defaultCodePage.toUpperCase()}` },
    { op: 'text', text: 'Crédito, Débito, ação, não, pão, avô' },
    { op: 'text', text: 'ÁÉÍÓÚ ÂÊÔ ÃÕ Ç À áéíóú âêô ãõ ç à º ª' },
    { op: 'text', text: 'R$ 1.234,56', align: 'right', bold: true },
    { op: 'text', text: 'LARGURA DUPLA', align: 'center', width: 2, height: 2 },
    { op: 'barcode', data: '000123', symbology: 'code128' },
    { op: 'qr', data: 'https://omnipos.invalid/teste', size: 4 },
    { op: 'text', text: model.qrNative ? 'QR pelo comando da impressora' : 'QR como imagem (raster)', align: 'center' },
    { op: 'cut', kind: 'partial' },
  ];
}

export const printerTest: Command = {
  path: ['printer', 'test'],
  summary: 'print a test page and wait until the printer says it is out',
  usage: `omnipos printer test [--tcp HOST:PORT | --serial PATH | --usb VID:PID] [--model ID] [--json]

Prints a test page (columns ruler, accents in the code page, a barcode, a QR code, a cut) and
follows it until the printer reports idle and error-free after the cut. On the virtual printer
(the default) it also shows the paper as a person reads it. Exits 0 when printed, 3 when not
(the reason is printed: paper-out, cover-open, offline, error, no-answer, disconnected, timeout).
${TARGET_USAGE}

Example:
  omnipos printer test --usb 04b8:0e15`,
  async run(args: string[], ctx: CliContext) {
    const { values } = parseArgs({ args, options: OPTIONS, strict: true });
    if (values.png !== undefined && (values.tcp || values.serial || values.usb))
      throw new OmniposError('INVALID_ARGUMENT', '--png applies to the virtual printer only', { option: 'png' });
    const target = await resolveTarget(values, ctx);
    const sim = target.virtual;
    const bytes = encodeDocument(testPage(target.model, target.description), target.model);
    const result = await withPrinterSession(target, (p) => p.print(bytes));
    const paper = sim?.lastReceipt?.lines ?? [];
    if (values.png !== undefined && sim) writeFileSync(values.png, sim.png(sim.lastReceipt ?? sim.uncut));
    if (values.json)
      printJson(ctx, {
        printer: target.description,
        model: target.model.id,
        bytes: bytes.length,
        ...result,
        ...(sim ? { paper } : {}),
      });
    else {
      ctx.out(
        `printer    ${target.description} (${target.model.id})\nsent       ${bytes.length} bytes\noutcome    ${result.outcome}${result.outcome === 'printed' ? '' : ` (${result.reason})`}\n`,
      );
      if (paper.length) ctx.out(`\n${paper.map((l) => `| ${l.padEnd(target.model.columns.a)} |`).join('\n')}\n`);
    }
    return result.outcome === 'printed' ? 0 : 3;
  },
};

/** Resolves when the process is asked to stop. */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
}

/** Control words read from standard input, one a line. */
const CONTROL: Readonly<Record<string, (p: VirtualPrinter) => void>> = {
  'paper-out': (p) => p.loadPaper(0),
  'load-paper': (p) => p.loadPaper(),
  'cover-open': (p) => p.setFaults({ coverOpen: true }),
  'cover-close': (p) => p.setFaults({ coverOpen: false }),
  offline: (p) => p.setFaults({ offline: true }),
  online: (p) => p.setFaults({ offline: false }),
};

export const simPrinter: Command = {
  path: ['sim', 'printer'],
  summary: "run the virtual ESC/POS printer on a TCP port (like a network printer's 9100)",
  usage: `omnipos sim printer [--tcp PORT] [--model ID] [--paper-lines N] [--near-end N] [--line-ms MS]

Runs a virtual receipt printer until stopped (SIGTERM/SIGINT). It decodes ESC/POS, answers
real-time status, and writes each receipt it cuts to standard output as a person would read it.
  --tcp PORT        listen on 127.0.0.1:PORT (default 9100; 0 = any free port)
  --model ID        the model it behaves as (default ${DEFAULT_PRINTER_MODEL_ID})
  --paper-lines N   lines on the roll before it runs out (default endless)
  --near-end N      the near-end sensor trips with N lines left
  --line-ms MS      time to print one line (default 0)
Standard input takes one control word a line: ${Object.keys(CONTROL).join(', ')}.
Prints one JSON line when ready: {"ready":true,"tcp":PORT,"model":ID}.

Example:
  omnipos sim printer --tcp 9100`,
  async run(args: string[], ctx: CliContext) {
    const { values } = parseArgs({
      args,
      options: {
        tcp: { type: 'string' },
        model: { type: 'string' },
        'paper-lines': { type: 'string' },
        'near-end': { type: 'string' },
        'line-ms': { type: 'string' },
      },
      strict: true,
    });
    const model = findPrinterModel(values.model ?? DEFAULT_PRINTER_MODEL_ID);
    if (!model)
      throw new OmniposError(
        'INVALID_ARGUMENT',
        `--model: no printer model ${JSON.stringify(values.model)} in tables/printers`,
        { option: 'model' },
      );
    const paperLines = intOption(values['paper-lines'], 'paper-lines', 0, 10_000_000);
    const nearEndLines = intOption(values['near-end'], 'near-end', 0, 10_000_000);
    const lineMs = intOption(values['line-ms'], 'line-ms', 0, 10_000);
    const sim = new VirtualPrinter({
      model,
      ...(paperLines !== undefined ? { paperLines } : {}),
      ...(nearEndLines !== undefined ? { nearEndLines } : {}),
      ...(lineMs !== undefined ? { lineMs } : {}),
    });
    sim.onCut((r) =>
      ctx.out(`${'='.repeat(model.columns.a)}\n${r.text}\n${'='.repeat(model.columns.a)} (${r.cut} cut)\n`),
    );
    const server = await serveVirtualPrinter(sim, { port: intOption(values.tcp, 'tcp', 0, 65535) ?? 9100 });
    const onLine = (chunk: Buffer): void => {
      for (const word of chunk.toString('utf8').split(/\s+/).filter(Boolean)) {
        const act = CONTROL[word];
        if (act) act(sim);
        ctx.err(`${JSON.stringify({ control: word, known: act !== undefined, status: sim.status() })}\n`);
      }
    };
    process.stdin.on('data', onLine);
    ctx.out(`${JSON.stringify({ ready: true, tcp: server.port, model: model.id })}\n`);
    await untilSignal();
    process.stdin.off('data', onLine);
    process.stdin.pause();
    await server.close();
    return 0;
  },
};
