import { describe, expect, it } from 'vitest';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { systemClock } from '../../../src/core/clock.js';
import { DayBook } from '../../../src/operations/day/index.js';
import { log } from '../../helpers/sandbox.js';
import { SUPERVISOR_PASSWORD, SUPERVISOR_TOKEN } from './terminal.js';
import { walletCancellations } from '../../../src/acquirer/omni/wallet-cancellations.js';
import { DAY_MS, cancellationShown, h, paidSale, terminal, until, virtual, walletPays } from './wallet-void-rig.js';

/**
 * A wallet QR void's cancellation code that ended on the terminal unpaid is not over at the host:
 * the strict sandbox keeps it payable for its own validity (15 min), longer than these terminals
 * watch it (300 ms and a 200 ms margin). The one visibility rule (rules/visibility.ts) decides
 * when "not applied" is final, as for every operation: never before the close of the code's day,
 * and only after the window after it; until then the void holds its amount.
 */
describe('a wallet QR void whose cancellation code ended on the terminal, against the sandbox', () => {
  it('a cancellation code nobody pays ends on the terminal, not at the host: the void holds the amount until the close of its day and the window after it, then ends expired, the sale keeps its amount to void, nothing printed', async () => {
    const t = terminal({ validityMs: 300 });
    const sale = await paidSale(t, 2500);
    const before = virtual.receipts.length;
    const { entry, done } = await t.voids.start(sale.id, { supervisor: { password: SUPERVISOR_PASSWORD } });
    await cancellationShown(t, entry.id);
    expect(t.voids.remaining(sale.id).remaining).toBe(0);
    await done;
    // The one visibility rule: "not applied" is never final before the close of the code's day.
    expect(t.journal.get(entry.id)?.state).toBe('expiring');
    await t.settleAt(0, 3);
    expect(t.journal.get(entry.id)?.state).toBe('expiring');
    expect(t.voids.remaining(sale.id).remaining).toBe(0);
    await t.settleAt(DAY_MS);
    expect(t.journal.get(entry.id)?.state).toBe('expired');
    expect(t.voids.remaining(sale.id).remaining).toBe(2500);
    // The day's report: the expired void moved nothing and is over (not in progress).
    const day = new DayBook({
      db: t.db,
      journal: t.journal,
      clock: systemClock,
      log,
      environment: 'sandbox',
      terminalId: SANDBOX_MERCHANT.terminal.terminalId,
    }).report();
    expect(day.lines.find((l) => l.id === entry.id)).toMatchObject({ outcome: 'void-failed', charged: 0 });
    expect(day.lines.find((l) => l.id === sale.id)).toMatchObject({ charged: 2500 });
    expect(virtual.receipts.length).toBe(before);
    t.voids.stop();
    t.db.close();
  });

  it('a cancellation code the wallet applies after the terminal stopped showing it: the void never ends expired with the money gone back; the outbox finds it applied and the void ends confirmed', async () => {
    // The sandbox keeps a code payable for its own validity (15 min), longer than this terminal watches (300 ms + 200 ms).
    const t = terminal({ validityMs: 300 });
    const sale = await paidSale(t, 2100);
    const { entry, done } = await t.voids.start(sale.id, { supervisor: { token: SUPERVISOR_TOKEN } });
    const shown = await cancellationShown(t, entry.id);
    await done;
    expect(t.journal.get(entry.id)?.state).not.toBe('expired');
    expect(t.voids.remaining(sale.id).remaining).toBe(0);
    const before = virtual.receipts.length;
    expect((await walletPays(shown.qrCode)).code).toBe(0);
    await t.settleAt(0, 50);
    expect(t.journal.get(entry.id)?.state).toBe('confirmed');
    // Confirmed late as on time (wallet-qr-void.test.ts): the VoidId in its field, the void's two copies printed.
    const applied = await walletCancellations(h.acquirer.omni).applied(
      t.journal.get(sale.id)!.data.paymentId as string,
      entry.merchantOrderId,
    );
    expect(t.journal.get(entry.id)?.data).toMatchObject({ voidId: applied?.voidId });
    const printed = await until(() => {
      const r = virtual.receipts.slice(before);
      return r.length >= 2 ? r.map((x) => x.lines.join('\n')) : undefined;
    }, 'the void receipt');
    expect(printed[0]).toContain('VIA CLIENTE');
    expect(printed[1]).toContain('VIA ESTABELECIMENTO');
    for (const text of printed) expect(text).toContain('CANCELAMENTO QR CODE');
    expect(t.voids.remaining(sale.id).remaining).toBe(0);
    expect(
      (await h.ledger()).sales.find((s) => s.merchantOrderId === t.journal.get(sale.id)!.merchantOrderId),
    ).toMatchObject({ voided: 2100, charged: 0 });
    t.voids.stop();
    t.db.close();
  });
});
