import type { ParsedPadraoq } from '../qr/index.js';
import { businessDay } from './clock.js';
import { ledgerEntry, newUuid, type SandboxContext } from './context.js';
import { cardMatch } from './sale-rows.js';
import { saleLinks } from './answers.js';

/**
 * A wallet payment of a terminal's QR becomes a terminal sale the terminal finds by its MerchantOrderId
 * (docs/decisions.md, "The sandbox host"), under the merchant and terminal the code names (26.01, 26.02).
 */
export function recordTerminalSale(
  ctx: SandboxContext,
  code: ParsedPadraoq,
  orderId: string,
  where: { merchantId: string; terminalId: string },
  amount: number,
  authorizationCode: string,
  nsu: string,
  pan: string,
): string {
  const now = ctx.clock.now();
  const paymentId = newUuid();
  const { merchantId, terminalId } = where;
  const answer = {
    MerchantOrderId: orderId,
    Customer: { Name: '[Guest]' },
    Payment: {
      SubordinatedMerchantId: merchantId,
      Type: code.qrcode_data.payment_information.modalidade === '0001' ? 'PhysicalDebitCard' : 'PhysicalCreditCard',
      Amount: amount,
      Installments: Number(code.qrcode_data.payment_information.parcelas) || 1,
      Capture: true,
      ReceivedDate: now.toISOString(),
      CapturedAmount: amount,
      Provider: 'Simulado',
      Status: 2,
      ReturnCode: '000',
      ReturnMessage: `APROVADA ${authorizationCode}`,
      AuthorizationCode: authorizationCode,
      ProofOfSale: nsu,
      PaymentId: paymentId,
      Currency: 'BRL',
      Country: 'BRA',
      ConfirmationStatus: 0,
      Wallet: {
        ReferenceLabel: orderId,
        TerminalNsu: (code.fields as { nsu?: string }).nsu ?? '',
        QrTimestamp: code.qrcode_data.payment_information.timestamp,
      },
      PinPadInformation: { TerminalId: terminalId },
      Links: saleLinks(ctx, paymentId, true),
    },
  };
  ctx.db
    .prepare(
      `INSERT INTO sales (payment_id, merchant_order_id, terminal_id, amount, status, confirmation_status, input_mode, business_day, created_at, card_match, answer)
       VALUES (?, ?, ?, ?, 2, 0, 'QrCode', ?, ?, ?, ?)`,
    )
    .run(
      paymentId,
      orderId,
      terminalId,
      amount,
      businessDay(now),
      now.getTime(),
      cardMatch(pan),
      JSON.stringify(answer),
    );
  ledgerEntry(ctx, { kind: 'charge', paymentId, merchantOrderId: orderId, amount, note: 'wallet QR payment' });
  return paymentId;
}
