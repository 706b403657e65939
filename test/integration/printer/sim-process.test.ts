import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EscPosEncoder, EscPosPrinter } from '../../../drivers/printer/index.js';
import { TcpTransport } from '../../../drivers/transport/index.js';
import { findPrinterModel } from '../../../tables/printers/index.js';
import { until } from './until.js';
import { omniposArgs } from '../../helpers/omnipos-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('omnipos sim printer (its own process, a real TCP port)', () => {
  it('prints what the driver sends, shows each cut receipt, and takes faults on standard input', async () => {
    const child = spawn(process.execPath, omniposArgs(['sim', 'printer', '--tcp', '0', '--model', 'virtual-58']), {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const ready = await new Promise<{ tcp: number; model: string }>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve(JSON.parse(line) as { tcp: number; model: string });
      });
      child.once('exit', (code) => reject(new Error(`sim exited with ${code}: ${err}`)));
    });
    expect(ready.model).toBe('virtual-58');
    const model = findPrinterModel('virtual-58')!;
    const printer = new EscPosPrinter({
      transport: new TcpTransport({ host: '127.0.0.1', port: ready.tcp }),
      model,
      pollMs: 20,
    });
    try {
      await printer.open();
      expect(
        await printer.print(
          new EscPosEncoder(model).initialize().align('center').line('Débito à vista').cut().encode(),
        ),
      ).toMatchObject({ outcome: 'printed' });
      await until('the receipt on stdout', () => out.includes('         Débito à vista'));
      child.stdin.write('cover-open\n');
      await until('cover open', async () => (await printer.status()).coverOpen);
      child.stdin.write('cover-close\n');
      await until('cover closed', async () => (await printer.status()).online);
    } finally {
      await printer.close();
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 20_000);
});
