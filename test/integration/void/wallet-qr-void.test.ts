import { describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { buildCancellationCode } from '../../../src/engine/qr/code-cancel.js';
import { saleQrCode } from '../../../src/engine/qr/code.js';
import { parsePadraoq, type CurrentFields } from '../../../src/qr/index.js';
import { SUPERVISOR_TOKEN } from './terminal.js';
import { MERCHANT, cancellationShown, h, paidSale, terminal, until, virtual, walletPays } from './wallet-void-rig.js';

/**
 * Voids of wallet QR sales against the strict sandbox: the terminal shows a cancellation code
 * (81.04 and 82.03 `02`, 82.05–82.07 naming the sale), the customer's wallet pays it through the
 * wallet API (`omnipos wallet pay`), the sandbox voids the sale in its ledger, and the terminal
 * sees it under the sale's query and prints the void's receipt on the virtual printer.
 */

describe('voids of wallet QR sales with the cancellation code, against the sandbox', () => {
  it('a partial void: the code names the sale, the wallet pays it, the sandbox voids that much, the terminal sees it and prints both copies', async () => {
    const t = terminal();
    const sale = await paidSale(t, 5000);
    const saleFields = parsePadraoq(sale.code).fields as CurrentFields;
    const before = virtual.receipts.length;
    const { entry, done } = await t.voids.start(sale.id, { amount: 2000, supervisor: { token: SUPERVISOR_TOKEN } });
    const shown = await cancellationShown(t, entry.id);
    const parsed = parsePadraoq(shown.qrCode);
    const f = parsed.fields as CurrentFields;
    expect(parsed.qrcode_data.payment_information.tipo_de_transacao).toBe('02');
    expect(f.schemeTransactionType).toBe('02');
    expect(f.original).toEqual({
      nsu: saleFields.nsu,
      date: (saleFields.schemeDate ?? '').slice(0, 4),
      terminalId: saleFields.terminalId,
    });
    expect(parsed.qrcode_data.transaction_amount).toBe('20.00');
    expect(parsed.qrcode_data.additional_data_field.reference_label).toBe(entry.merchantOrderId);
    expect(t.voids.remaining(sale.id).remaining).toBe(3000);

    const paid = await walletPays(shown.qrCode);
    expect(paid.err).toBe('');
    expect(paid.code).toBe(0);
    expect(JSON.parse(paid.out)).toMatchObject({ reference_label: entry.merchantOrderId, transaction_type: '02' });
    await done;
    const v = t.journal.get(entry.id)!;
    expect(v.state).toBe('confirmed');
    expect(
      t.journal
        .transitions(entry.id)
        .map((x) => x.to)
        .slice(0, 3),
    ).toEqual(['started', 'showing-code', 'confirmed']);
    expect(v.data).toMatchObject({ voidId: expect.any(String), authorizedBy: 'supervisor-token' });
    const row = (await h.ledger()).sales.find((s) => s.merchantOrderId === t.journal.get(sale.id)!.merchantOrderId);
    expect(row).toMatchObject({ voided: 2000, charged: 3000 });

    // The void's receipt, as read off the virtual printer's paper: both copies.
    const printed = virtual.receipts.slice(before).map((r) => r.lines.join('\n'));
    expect(printed).toHaveLength(2);
    expect(printed[0]).toContain('VIA CLIENTE');
    expect(printed[1]).toContain('VIA ESTABELECIMENTO');
    for (const text of printed) {
      expect(text).toContain('CANCELAMENTO QR CODE');
      expect(text).toContain('ESTORNO DA VENDA ORIGINAL');
      expect(text).toMatch(/VALOR CANCELADO +R\$ 20,00/);
      expect(text).toMatch(new RegExp(`PEDIDO ORIG\\. +${t.journal.get(sale.id)!.merchantOrderId}`));
      expect(text).toMatch(new RegExp(`NSU ORIG\\. +${saleFields.nsu}`));
    }

    // Paid again by the same payer: the wallet's first answer, and nothing more voided.
    expect((await walletPays(shown.qrCode)).code).toBe(0);
    expect((await h.ledger()).sales.find((s) => s.merchantOrderId === row!.merchantOrderId)).toMatchObject({
      voided: 2000,
    });

    // The rest, then nothing remains.
    const second = await t.voids.start(sale.id, { supervisor: { token: SUPERVISOR_TOKEN } });
    const code2 = await cancellationShown(t, second.entry.id);
    expect(parsePadraoq(code2.qrCode).qrcode_data.transaction_amount).toBe('30.00');
    expect((await walletPays(code2.qrCode)).code).toBe(0);
    await second.done;
    expect(t.journal.get(second.entry.id)?.state).toBe('confirmed');
    expect((await h.ledger()).sales.find((s) => s.merchantOrderId === row!.merchantOrderId)).toMatchObject({
      voided: 5000,
      charged: 0,
    });
    await expect(t.voids.start(sale.id, { supervisor: { token: SUPERVISOR_TOKEN } })).rejects.toMatchObject({
      code: 'VOID_OVER_LIMIT',
    });
    t.voids.stop();
    t.db.close();
  });

  it('the sandbox refuses a cancellation for more than remains, for an unknown sale, and with another card; nothing moves', async () => {
    const t = terminal();
    const sale = await paidSale(t, 4000);
    const orderId = t.journal.get(sale.id)!.merchantOrderId;
    const over = buildCancellationCode({
      original: sale.code,
      nsu: '900001',
      issuedAt: new Date(),
      amount: 4000,
      referenceLabel: '990000000000001',
    });
    // More than remains once 1000 are voided: refused.
    const first = buildCancellationCode({
      original: sale.code,
      nsu: '900002',
      issuedAt: new Date(),
      amount: 1000,
      referenceLabel: '990000000000002',
    });
    expect((await walletPays(first)).code).toBe(0);
    const refusedOver = await walletPays(over);
    expect(refusedOver.code).not.toBe(0);
    expect(refusedOver.err).toMatch(/more than the 3000 cents that remain/);
    // A code naming a sale nobody paid (its NSU was never a wallet payment).
    const unpaid = saleQrCode(MERCHANT, {
      request: { amount: 4000, method: 'credit', installments: 1, interest: 'ByMerchant', confirmation: 'auto' },
      merchantOrderId: '990000000000003',
      nsu: '900003',
      issuedAt: new Date(),
    });
    const unknown = await walletPays(
      buildCancellationCode({
        original: unpaid,
        nsu: '900004',
        issuedAt: new Date(),
        referenceLabel: '990000000000004',
      }),
    );
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toMatch(/name no wallet sale/);
    // Another card than the one that paid the sale.
    const other =
      TEST_CARDS.find((c) => c.pan !== TEST_CARDS[0]!.pan && c.brandId === TEST_CARDS[0]!.brandId) ?? TEST_CARDS[1]!;
    const wrongCard = await walletPays(
      buildCancellationCode({
        original: sale.code,
        nsu: '900005',
        issuedAt: new Date(),
        amount: 500,
        referenceLabel: '990000000000005',
      }),
      other,
    );
    expect(wrongCard.code).not.toBe(0);
    expect(wrongCard.err).toMatch(/not the card that paid the sale|Invalid card data/);
    expect((await h.ledger()).sales.find((s) => s.merchantOrderId === orderId)).toMatchObject({
      voided: 1000,
      charged: 3000,
    });
    t.voids.stop();
    t.db.close();
  });

  it('a restart while the cancellation code shows: recovery watches it again, and the wallet paying it then still ends the void confirmed', async () => {
    const t1 = terminal();
    const sale = await paidSale(t1, 1800);
    const { entry, done } = await t1.voids.start(sale.id, { supervisor: { token: SUPERVISOR_TOKEN } });
    const shown = await cancellationShown(t1, entry.id);
    t1.voids.stop();
    await done;
    expect(t1.journal.get(entry.id)?.state).toBe('showing-code');
    t1.db.close();

    const t2 = terminal({ dir: t1.dir });
    t2.voids.recover();
    const again = await cancellationShown(t2, entry.id);
    expect(again.qrCode).toBe(shown.qrCode);
    expect(t2.voids.remaining(sale.id).remaining).toBe(0);
    expect((await walletPays(shown.qrCode)).code).toBe(0);
    await until(
      () => (t2.journal.get(entry.id)?.state === 'confirmed' ? true : undefined),
      'the void confirmed after the restart',
    );
    expect(
      (await h.ledger()).sales.find((s) => s.merchantOrderId === t2.journal.get(sale.id)!.merchantOrderId),
    ).toMatchObject({ voided: 1800, charged: 0 });
    t2.voids.stop();
    t2.db.close();
  });

  it('the printer out of paper: the void stands (approved, voided at the host) and VOID_RECEIPT_FAILED is raised', async () => {
    const t = terminal();
    const sale = await paidSale(t, 1100);
    virtual.loadPaper(0);
    try {
      const { entry, done } = await t.voids.start(sale.id, { supervisor: { token: SUPERVISOR_TOKEN } });
      expect((await walletPays((await cancellationShown(t, entry.id)).qrCode)).code).toBe(0);
      await done;
      expect(t.journal.get(entry.id)?.state).toBe('confirmed');
      expect(t.events.filter((e) => e.type === 'alarm').map((e) => (e as { code: string }).code)).toEqual([
        'VOID_RECEIPT_FAILED',
      ]);
      expect(
        (await h.ledger()).sales.find((s) => s.merchantOrderId === t.journal.get(sale.id)!.merchantOrderId),
      ).toMatchObject({ voided: 1100 });
    } finally {
      virtual.loadPaper();
    }
    t.voids.stop();
    t.db.close();
  });

  it('a void without a supervisor is refused before any code exists', async () => {
    const t = terminal();
    const sale = await paidSale(t, 1200);
    await expect(t.voids.start(sale.id, { supervisor: {} })).rejects.toMatchObject({ code: 'SUPERVISOR_REQUIRED' });
    expect(t.voids.voidsOf(sale.id)).toEqual([]);
    t.voids.stop();
    t.db.close();
  });
});
