import { afterEach, describe, expect, it, vi } from 'vitest';
import { EscPosEncoder, EscPosPrinter } from '../../../drivers/printer/index.js';
import { TcpTransport } from '../../../drivers/transport/index.js';
import { serveVirtualPrinter, VirtualPrinter } from '../../../src/sim/printer/index.js';

// The receipt's end is read when the printer answers the `GS r 1` sent behind the cut, not at the
// next status poll. The old driver always slept one poll interval (200 ms by default) before it
// looked, and every card sale's cashier waited for it (issue 23's soak found it: 20 ms of each
// sale with the virtual printer's 20 ms poll). Here the poll's timer never fires (fake timers,
// never advanced; the sockets are real loopback): the print completes only if the answer wakes it.

const realSetTimeout = globalThis.setTimeout;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  while (cleanups.length) await cleanups.pop()!();
});

describe('EscPosPrinter: the answer behind the cut ends the wait', () => {
  it('a receipt is printed without waiting for a status poll (the poll timer never fires)', async () => {
    const sim = new VirtualPrinter({});
    const server = await serveVirtualPrinter(sim);
    const printer = new EscPosPrinter({
      transport: new TcpTransport({ host: '127.0.0.1', port: server.port }),
      model: sim.model,
      pollMs: 5000,
      replyTimeoutMs: 10000,
      printTimeoutMs: 600000,
    });
    await printer.open();
    cleanups.push(async () => {
      await printer.close();
      await server.close();
    });
    const bytes = new EscPosEncoder(sim.model).initialize().line('COMPROVANTE').line('linha 1').cut().encode();

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const outcome = await Promise.race([
      printer.print(bytes).then((r) => r.outcome),
      // a real 30 s guard: the old driver waits here for ever (its poll timer is fake and never fires)
      new Promise<string>((resolve) => realSetTimeout(() => resolve('still waiting for the poll'), 30_000)),
    ]);
    vi.useRealTimers();

    expect(outcome).toBe('printed');
    expect(sim.receipts).toHaveLength(1);
    expect(sim.lastReceipt!.lines[0]).toContain('COMPROVANTE');
  }, 60_000);
});
