import { afterEach, describe, expect, it } from 'vitest';
import { findPrinterModel } from '../../../tables/printers/index.js';
import { serveVirtualPrinter, VirtualPrinter, type VirtualPrinterServer } from '../../../src/sim/printer/index.js';
import { runCliCaptured as cli } from '../../helpers/cli.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const servers: VirtualPrinterServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

describe('omnipos printer status | test (against the virtual printer by default)', () => {
  const tempDir = useTempDirs();
  it('printer test prints the page, waits for idle after the cut, and shows the paper', async () => {
    const r = await cli(['printer', 'test']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('outcome    printed');
    expect(r.out).toContain('| Crédito, Débito, ação, não, pão, avô');
    expect(r.out).toContain('[QR Code]');
    expect(r.out).toContain('QR pelo comando da impressora');
  });

  it('printer test --png writes the virtual paper as a PNG', async () => {
    const { readFileSync } = await import('node:fs');
    const path = await import('node:path');
    const file = path.join(tempDir('omnipos-png-'), 'page.png');
    expect((await cli(['printer', 'test', '--png', file])).code).toBe(0);
    expect([...readFileSync(file).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect((await cli(['printer', 'test', '--png', file, '--tcp', '127.0.0.1:9'])).code).toBe(2);
  });

  it('a 58 mm model without GS ( k gets the QR as a raster, and 32 columns', async () => {
    const r = await cli(['printer', 'test', '--model', 'virtual-58', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { outcome: string; paper: string[] };
    expect(j.outcome).toBe('printed');
    expect(j.paper).toContain('12345678901234567890123456789012');
    expect(j.paper.some((l) => /\[imagem \d+x\d+\]/.test(l))).toBe(true);
  });

  it('status is 0 when idle and 3 with the condition when not', async () => {
    expect(await cli(['printer', 'status'])).toMatchObject({ code: 0 });
    for (const fault of ['paper-out', 'cover-open', 'offline'] as const) {
      const r = await cli(['printer', 'status', '--fault', fault, '--json']);
      expect(r.code).toBe(3);
      expect(JSON.parse(r.out)).toMatchObject({ condition: fault });
    }
  });

  it('test with the cover open: not printed, exit 3, the reason said', async () => {
    const r = await cli(['printer', 'test', '--fault', 'cover-open']);
    expect(r.code).toBe(3);
    expect(r.out).toContain('outcome    not-printed (cover-open)');
  });

  it('--tcp reaches a network printer (here the virtual one on a real port)', async () => {
    const sim = new VirtualPrinter({ model: findPrinterModel('epson-tm-t88v')! });
    const server = await serveVirtualPrinter(sim);
    servers.push(server);
    const r = await cli(['printer', 'test', '--tcp', `127.0.0.1:${server.port}`, '--model', 'epson-tm-t88v']);
    expect(r.code).toBe(0);
    expect(sim.lastReceipt!.lines).toContain('Crédito, Débito, ação, não, pão, avô');
    expect(sim.lastReceipt!.lines[3]).toBe('123456789012345678901234567890123456789012');
  });

  it('refuses a bad model, address or fault with exit 2', async () => {
    expect((await cli(['printer', 'status', '--model', 'nope'])).code).toBe(2);
    expect((await cli(['printer', 'status', '--tcp', 'nohost'])).code).toBe(2);
    expect((await cli(['printer', 'status', '--usb', '4b8:e15'])).code).toBe(2);
    expect((await cli(['printer', 'status', '--fault', 'fire'])).code).toBe(2);
  });

  it('an unreachable network printer: exit 3 (PRINTER_NOT_FOUND)', async () => {
    const r = await cli(['printer', 'status', '--tcp', '127.0.0.1:1']);
    expect(r.code).toBe(3);
  });
});
