import { describe, expect, it } from 'vitest';
import { EscPosEncoder } from '../../../../drivers/printer/index.js';
import { findPrinterModel } from '../../../../tables/printers/index.js';
import { KEPT_RECEIPTS, VirtualPrinter } from '../../../../src/sim/printer/printer.js';

/**
 * Paper leaves a real printer. The virtual one kept every receipt it ever cut, so a soak of 10^5
 * sales measured the simulator's memory instead of the daemon's (issue 23's heap snapshot). It keeps
 * the newest KEPT_RECEIPTS now.
 */
describe('virtual printer memory', () => {
  it(`keeps the newest ${KEPT_RECEIPTS} receipts, in order, after many more are cut`, () => {
    const model = findPrinterModel('virtual-80')!;
    const p = new VirtualPrinter({ model });
    const total = KEPT_RECEIPTS + 37;
    for (let i = 0; i < total; i++)
      p.write(new EscPosEncoder(model, { codePage: 'cp860' }).initialize().line(`RECIBO ${i}`).cut().encode());
    expect(p.receipts).toHaveLength(KEPT_RECEIPTS);
    expect(p.receipts[0]!.lines[0]).toBe(`RECIBO ${total - KEPT_RECEIPTS}`);
    expect(p.lastReceipt!.lines[0]).toBe(`RECIBO ${total - 1}`);
  });
});
