import type { WalletCardData } from '../crypto/index.js';
import type { CurrentFields, ParsedPadraoq } from '../qr/index.js';
import { nextNsu } from './answers.js';
import { ledgerEntry, newUuid, type SandboxContext } from './context.js';
import { walletError } from './errors.js';
import { Refusal, type Answer } from './http-kit.js';
import { cardMatch, type SaleRow } from './sale-rows.js';

/**
 * The wallet's side of a cancellation code (wallet document 000: 81.04 and 82.03 `02`, 82.05–82.07
 * the original transaction's NSU, MMDD date and terminal id). The customer scans it and "pays"
 * it with the card that paid the sale; the sandbox then voids that much of the terminal sale the
 * wallet payment became, in one step (the wallet applies it: no confirmation follows), and the
 * sale's query shows the void under `Payment.Voids` with the cancellation's 62.05 as its
 * `MerchantVoidId` — the terminal watches for it there (the sandbox's contract, *(homologation)*).
 * Strict: a code naming no wallet sale of the terminal, a sale not confirmed or undone, another
 * card, or more than remains is refused (422), and nothing moves.
 */

const refuse = (code: string, detail: string): Refusal =>
  walletError(`422.${code}`, detail.replace(/^Invalid QR code: /, ''), 422);

/** One void the wallet applied, as the sale's query lists it. */
export interface WalletVoidView {
  VoidId: string;
  MerchantVoidId: string;
  VoidAmount: number;
  CancellationStatus: 3;
  Source: 'wallet-qr';
}

/** MMDD of an 81.01 timestamp (DDMMYYHHmmss). */
function mmdd(timestamp: string): string {
  return `${timestamp.slice(2, 4)}${timestamp.slice(0, 2)}`;
}

/** The terminal sale a wallet payment became whose terminal NSU, date and terminal id the code names. */
export function findWalletSale(
  ctx: SandboxContext,
  original: { nsu: string; date: string; terminalId: string },
): SaleRow | undefined {
  const rows = ctx.db
    .prepare(
      `SELECT * FROM sales WHERE terminal_id = ? AND input_mode = 'QrCode' AND json_extract(answer, '$.Payment.Wallet.TerminalNsu') = ? ORDER BY created_at DESC`,
    )
    .all(original.terminalId, original.nsu) as SaleRow[];
  return rows.find((r) => {
    const ts =
      (JSON.parse(r.answer) as { Payment: { Wallet?: { QrTimestamp?: string } } }).Payment.Wallet?.QrTimestamp ?? '';
    return mmdd(ts) === original.date;
  });
}

/** What the sale has given back through voids that stand or may (approved, confirmed), cents. */
function voidedOf(ctx: SandboxContext, paymentId: string): number {
  return (
    ctx.db
      .prepare(`SELECT COALESCE(SUM(amount), 0) AS s FROM voids WHERE payment_id = ? AND cancellation_status IN (1, 3)`)
      .get(paymentId) as { s: number }
  ).s;
}

/**
 * Applies a cancellation code paid by the wallet. `label` is its 62.05 (the terminal's
 * MerchantVoidId), `payer` the payee document the wallet sent. Idempotent by `label`: the same
 * payer gets the first answer again.
 */
export function applyCancellation(
  ctx: SandboxContext,
  code: ParsedPadraoq,
  label: string,
  payer: string,
  card: WalletCardData,
): Answer {
  const f = code.fields as CurrentFields;
  if (code.model !== 'current' || !f.original)
    throw refuse('002', 'Invalid QR code: a cancellation needs 82.05–82.07 (the current model)');
  if (f.schemeTransactionType !== undefined && f.schemeTransactionType !== '02')
    throw refuse('002', `Invalid QR code: 82.03 is ${f.schemeTransactionType}, a cancellation is 02`);
  if (!/^\d{1,15}$/.test(label))
    throw refuse('002', 'Invalid QR code: 62.05 of a cancellation must carry the MerchantVoidId');
  const previous = ctx.db
    .prepare(`SELECT payer_document, answer FROM wallet_payments WHERE reference_label = ?`)
    .get(label) as { payer_document: string; answer: string } | undefined;
  if (previous) {
    if (previous.payer_document !== payer)
      throw new Refusal(409, { description: 'cancellation resubmitted with a different payer document' });
    return { status: 200, body: JSON.parse(previous.answer) as unknown };
  }
  const sale = findWalletSale(ctx, f.original);
  if (!sale)
    throw refuse(
      '002',
      `Invalid QR code: 82.05–82.07 (NSU ${f.original.nsu}, ${f.original.date}, terminal ${f.original.terminalId}) name no wallet sale`,
    );
  if (f.originalNsu !== undefined && f.originalNsu !== f.original.nsu)
    throw refuse('002', 'Invalid QR code: 81.06 and 82.05 name different sales');
  if (sale.status !== 2 || sale.confirmation_status === 2)
    throw refuse('002', 'Invalid QR code: the sale was not approved or was undone');
  if (sale.confirmation_status !== 1)
    throw refuse('002', 'Invalid QR code: the sale is not confirmed (undo it instead)');
  if (sale.card_match !== cardMatch(card.card_number))
    throw refuse('004', 'Invalid card data: not the card that paid the sale');
  const amount = Math.round(Number(code.qrcode_data.transaction_amount) * 100);
  const remaining = sale.amount - voidedOf(ctx, sale.payment_id);
  if (!(amount > 0)) throw refuse('007', 'Generic error: the amount must be above zero');
  if (amount > remaining)
    throw refuse('007', `Generic error: ${amount} cents is more than the ${remaining} cents that remain of the sale`);
  const dup = ctx.db
    .prepare(`SELECT 1 FROM voids WHERE payment_id = ? AND merchant_void_id = ?`)
    .get(sale.payment_id, label);
  if (dup) throw new Refusal(409, { description: `MerchantVoidId ${label} already voided this sale` });

  const now = ctx.clock.now();
  const voidId = newUuid();
  const saleAnswer = JSON.parse(sale.answer) as { Payment: Record<string, unknown> };
  const answer = {
    reference_label: label,
    merchant_id: code.qrcode_data.merchant_account_information.id_merchant,
    terminal_id: code.qrcode_data.merchant_account_information.id_terminal,
    authorization_code:
      typeof saleAnswer.Payment.AuthorizationCode === 'string' ? saleAnswer.Payment.AuthorizationCode : '',
    authentication_code: null,
    host_nsu: nextNsu(ctx),
    terminal_nsu: f.nsu,
    timestamp: code.qrcode_data.payment_information.timestamp,
    card_scheme: card.card_number.startsWith('4') ? 'VISA' : card.card_number.startsWith('5') ? 'MASTERCARD' : 'ELO',
    transaction_type: '02',
    original_payment_id: sale.payment_id,
    void_id: voidId,
  };
  const view: WalletVoidView = {
    VoidId: voidId,
    MerchantVoidId: label,
    VoidAmount: amount,
    CancellationStatus: 3,
    Source: 'wallet-qr',
  };
  const stored = {
    VoidId: voidId,
    ReturnCode: '000',
    ReturnMessage: 'CANCELAMENTO APROVADO',
    PrintMessage: [],
    VoidAmount: amount,
    Source: 'wallet-qr',
  };
  saleAnswer.Payment.Voids = [...((saleAnswer.Payment.Voids as WalletVoidView[] | undefined) ?? []), view];
  ctx.db.transaction(() => {
    ctx.db
      .prepare(
        `INSERT INTO voids (void_id, payment_id, merchant_void_id, amount, cancellation_status, created_at, answer) VALUES (?, ?, ?, ?, 3, ?, ?)`,
      )
      .run(voidId, sale.payment_id, label, amount, now.getTime(), JSON.stringify(stored));
    ctx.db.prepare(`UPDATE sales SET answer = ? WHERE payment_id = ?`).run(JSON.stringify(saleAnswer), sale.payment_id);
    ledgerEntry(ctx, {
      kind: 'void',
      paymentId: sale.payment_id,
      merchantOrderId: sale.merchant_order_id,
      voidId,
      amount: -amount,
      note: 'wallet QR cancellation',
    });
    ledgerEntry(ctx, {
      kind: 'void-confirm',
      paymentId: sale.payment_id,
      merchantOrderId: sale.merchant_order_id,
      voidId,
      note: 'applied by the wallet',
    });
    ctx.db
      .prepare(
        `INSERT INTO wallet_payments (id, reference_label, payer_document, card_match, amount, payment_id, ecommerce_payment_id, answer, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
      )
      .run(
        newUuid(),
        label,
        payer,
        cardMatch(card.card_number),
        -amount,
        sale.payment_id,
        JSON.stringify(answer),
        now.getTime(),
      );
  })();
  return { status: 200, body: answer };
}
