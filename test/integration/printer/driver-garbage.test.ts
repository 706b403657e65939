import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EscPosPrinter, isPrinterError } from '../../../drivers/printer/index.js';
import { TcpTransport } from '../../../drivers/transport/index.js';
import { findPrinterModel } from '../../../tables/printers/index.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed (printer driver garbage): ${SEED}`);

/** A "printer" that answers every byte it receives with bytes the test chooses (noise, half replies, nothing). */
let answers: Uint8Array[] = [];
let server: net.Server;
let port = 0;

beforeAll(async () => {
  server = net.createServer((s) => {
    s.on('data', () => {
      const a = answers.shift();
      if (a && a.length) s.write(a);
    });
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the driver facing a printer that sends garbage', () => {
  it('status() either gives a well-formed status or fails with a PRINTER_* code, quickly (fuzz)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 6 }), { minLength: 0, maxLength: 6 }), async (noise) => {
        answers = noise;
        const printer = new EscPosPrinter({
          transport: new TcpTransport({ host: '127.0.0.1', port }),
          model: findPrinterModel('virtual-80')!,
          replyTimeoutMs: 50,
        });
        await printer.open();
        // A status() that hung would end the property at the test's timeout (no bound on elapsed time here).
        try {
          const s = await printer.status();
          expect(typeof s.online).toBe('boolean');
        } catch (e) {
          expect(isPrinterError(e)).toBe(true);
        } finally {
          await printer.close();
        }
      }),
      // 200 runs, not 1000: each run waits out real reply timeouts on a socket (the byte
      // classifier and status decoder underneath have their own 1000-run properties).
      { numRuns: 200, seed: SEED },
    );
  }, 60_000);
});
