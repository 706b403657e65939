import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EscPosEncoder, EscPosPrinter, type PrinterEvent } from '../../../drivers/printer/index.js';
import { TcpTransport } from '../../../drivers/transport/index.js';
import { until } from './until.js';
import {
  serveVirtualPrinter,
  VirtualPrinter,
  type VirtualPrinterOptions,
  type VirtualPrinterServer,
} from '../../../src/sim/printer/index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function rig(
  opts: VirtualPrinterOptions = {},
  driver: { pollMs?: number; printTimeoutMs?: number } = {},
): Promise<{ sim: VirtualPrinter; server: VirtualPrinterServer; printer: EscPosPrinter; events: PrinterEvent[] }> {
  const sim = new VirtualPrinter(opts);
  const server = await serveVirtualPrinter(sim);
  const printer = new EscPosPrinter({
    transport: new TcpTransport({ host: '127.0.0.1', port: server.port }),
    model: sim.model,
    pollMs: driver.pollMs ?? 20,
    replyTimeoutMs: 300,
    printTimeoutMs: driver.printTimeoutMs ?? 5000,
  });
  const events: PrinterEvent[] = [];
  printer.onEvent((e) => events.push(e));
  await printer.open();
  cleanups.push(async () => {
    await printer.close();
    await server.close();
  });
  return { sim, server, printer, events };
}

function receipt(sim: VirtualPrinter, lines = 8): Uint8Array {
  const e = new EscPosEncoder(sim.model)
    .initialize()
    .align('center')
    .bold(true)
    .line('COMPROVANTE DE CRÉDITO')
    .bold(false)
    .align('left');
  for (let i = 1; i <= lines; i++) e.line(`linha ${i} — ação`);
  return e.cut().encode();
}

describe('EscPosPrinter over TCP against the virtual printer (real loopback)', () => {
  it('reads the four real-time statuses', async () => {
    const { printer, events } = await rig();
    const s = await printer.status();
    expect(s).toMatchObject({ online: true, paperOut: false, coverOpen: false });
    expect(events.map((e) => e.type)).toEqual(['idle']);
  });

  it('a receipt is printed only after the printer answered behind the cut and reported idle', async () => {
    const { sim, printer } = await rig({ lineMs: 15 });
    const t = Date.now();
    const r = await printer.print(receipt(sim));
    expect(r.outcome).toBe('printed');
    expect(Date.now() - t).toBeGreaterThanOrEqual(15 * 9);
    expect(sim.receipts).toHaveLength(1);
    expect(sim.lastReceipt!.lines[0]).toContain('COMPROVANTE DE CRÉDITO');
    expect(sim.lastReceipt!.lines[1]).toBe('linha 1 - ação');
  });

  it('paper out mid-receipt: uncertain (ask the cashier), a paper-out event, and the rest prints after a new roll', async () => {
    const { sim, printer, events } = await rig({ paperLines: 4, lineMs: 5 });
    const r = await printer.print(receipt(sim));
    expect(r).toMatchObject({ outcome: 'uncertain', reason: 'paper-out' });
    expect(events.map((e) => e.type)).toContain('paper-out');
    expect(sim.receipts).toHaveLength(0);
    expect(sim.uncut.lines).toHaveLength(4);
    sim.loadPaper();
    await until('the rest of the receipt', () => sim.receipts.length === 1);
    expect(await printer.status()).toMatchObject({ paperOut: false, online: true });
    expect(events.at(-1)?.type).toBe('idle');
  });

  it('cover open before printing: not printed, and nothing was sent', async () => {
    const { sim, printer } = await rig();
    sim.setFaults({ coverOpen: true });
    const r = await printer.print(receipt(sim));
    expect(r).toMatchObject({ outcome: 'not-printed', reason: 'cover-open' });
    expect(sim.pending).toBe(0);
    sim.setFaults({ coverOpen: false });
    expect(sim.receipts).toHaveLength(0);
  });

  it('cover opened while printing: uncertain with the cover-open event', async () => {
    const { sim, printer, events } = await rig({ lineMs: 20 });
    setTimeout(() => sim.setFaults({ coverOpen: true }), 60);
    const r = await printer.print(receipt(sim, 20));
    expect(r).toMatchObject({ outcome: 'uncertain', reason: 'cover-open' });
    expect(events.map((e) => e.type)).toContain('cover-open');
  });

  it('offline: not printed', async () => {
    const { sim, printer, events } = await rig();
    sim.setFaults({ offline: true });
    expect(await printer.print(receipt(sim))).toMatchObject({ outcome: 'not-printed', reason: 'offline' });
    expect(events.map((e) => e.type)).toEqual(['offline']);
  });

  it('the connection drops mid-receipt: uncertain, and a disconnected event', async () => {
    const { sim, server, printer, events } = await rig({ lineMs: 20 });
    setTimeout(() => server.dropConnections(), 60);
    const r = await printer.print(receipt(sim, 20));
    expect(r).toMatchObject({ outcome: 'uncertain', reason: 'disconnected' });
    expect(events.map((e) => e.type)).toContain('disconnected');
  });

  it('a device that accepts bytes but never answers status: not printed (no-answer), within the reply timeout', async () => {
    const silent = net.createServer((s) => s.on('data', () => undefined));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    const sim = new VirtualPrinter();
    const printer = new EscPosPrinter({
      transport: new TcpTransport({ host: '127.0.0.1', port }),
      model: sim.model,
      replyTimeoutMs: 100,
      // Far beyond the test's own timeout: a print that waited for it instead of the reply timeout fails the test.
      printTimeoutMs: 600_000,
    });
    await printer.open();
    cleanups.push(async () => {
      await printer.close();
      await new Promise<void>((r) => silent.close(() => r()));
    });
    expect(await printer.print(receipt(sim))).toMatchObject({ outcome: 'not-printed', reason: 'no-answer' });
    await expect(printer.status()).rejects.toMatchObject({ code: 'PRINTER_TIMEOUT' });
  });

  it('a printer that never finishes: uncertain after the print timeout', async () => {
    const { sim, printer } = await rig({ lineMs: 200 }, { printTimeoutMs: 150 });
    expect(await printer.print(receipt(sim, 10))).toMatchObject({ outcome: 'uncertain', reason: 'timeout' });
  });
});

describe('status bytes hidden in image data (Epson answers DLE EOT even inside a raster)', () => {
  it('stray replies to a DLE EOT pattern inside a logo do not confuse the driver: printed, status right', async () => {
    const { bitmapFrom } = await import('../../../drivers/printer/index.js');
    // Row bytes 0x10 0x04 0x01 repeated: the pattern of DLE EOT 1 in the raster data.
    const pattern = [0x10, 0x04, 0x01];
    const logo = bitmapFrom(
      24 * 8,
      16,
      (x, y) => ((pattern[Math.floor(x / 8) % 3]! >> (7 - (x % 8))) & 1) === 1 && y >= 0,
    );
    const { sim, printer } = await rig({ realtimeInData: true });
    const stray: number[] = [];
    sim.onReply((b) => stray.push(...b));
    const r = await printer.print(
      new EscPosEncoder(sim.model).initialize().image(logo).line('depois do logo').cut().encode(),
    );
    expect(stray.length).toBeGreaterThan(8 + 1 + 4);
    expect(r).toMatchObject({ outcome: 'printed', status: { online: true, paperOut: false } });
    expect(sim.lastReceipt!.lines).toContain('depois do logo');
  });
});

describe('link loss and monitoring', () => {
  it('after a dropped connection the next request reopens the link once', async () => {
    const { sim, server, printer, events } = await rig();
    await printer.status();
    server.dropConnections();
    await until('the disconnected event', () => events.some((e) => e.type === 'disconnected'));
    expect(await printer.print(receipt(sim, 2))).toMatchObject({ outcome: 'printed' });
    expect(sim.receipts).toHaveLength(1);
  });

  it('a printer gone for good: not printed (disconnected), status fails with PRINTER_DISCONNECTED', async () => {
    const { sim, server, printer } = await rig();
    const lost = new Promise<void>((r) => printer.onEvent((e) => e.type === 'disconnected' && r()));
    await printer.status();
    await server.close();
    await lost;
    expect(await printer.print(receipt(sim, 2))).toMatchObject({ outcome: 'not-printed', reason: 'disconnected' });
    await expect(printer.status()).rejects.toMatchObject({ code: 'PRINTER_DISCONNECTED' });
  });

  it('monitoring emits paper-near-end, cover-open and idle as they happen, with nothing printing', async () => {
    const { sim, printer, events } = await rig({ paperLines: 100, nearEndLines: 50 });
    const stop = printer.monitor(25);
    const seen =
      (t: string, n = 1): (() => boolean) =>
      () =>
        events.filter((e) => e.type === t).length >= n;
    await until('idle', seen('idle'));
    sim.loadPaper(40);
    await until('paper-near-end', seen('paper-near-end'));
    sim.setFaults({ coverOpen: true });
    await until('cover-open', seen('cover-open'));
    sim.setFaults({ coverOpen: false });
    await until('idle again', seen('idle', 2));
    stop();
    expect(events.map((e) => e.type)).toEqual(['idle', 'paper-near-end', 'cover-open', 'idle']);
  });
});
