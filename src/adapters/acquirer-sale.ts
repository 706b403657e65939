import type { OmniClient, PhysicalCard, PhysicalSaleRequest, PhysicalSaleResponse, SaleOutcome } from '../acquirer/index.js';
import type { EncryptedCard, SaleAuthorizationPort, SaleOrder } from '../engine/ports.js';
import type { HostSaleOutcome, PaymentMethod } from '../engine/sale/types.js';

export interface TerminalIdentity {
  subordinatedMerchantId: string;
  terminalId: string;
  /** The pinpad's serial number (GIX). */
  pinpadSerial: string;
  physicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless' | 'PinPadWithChipReaderWithoutSamModule' | 'PinPadWithoutChipReader';
  softDescriptor: string;
}

const TYPES: Record<PaymentMethod, 'PhysicalCreditCard' | 'PhysicalDebitCard' | 'PhysicalVoucherCard'> = {
  credit: 'PhysicalCreditCard',
  debit: 'PhysicalDebitCard',
  voucher: 'PhysicalVoucherCard',
};

const NODES = { credit: 'CreditCard', debit: 'DebitCard', voucher: 'VoucherCard' } as const;

/** The card node of a request (ciphertext only), from what the pinpad read; voids send it too. */
export function cardNode(order: Pick<SaleOrder, 'summary'>, card: EncryptedCard): PhysicalCard {
  const s = order.summary;
  const typed = card.kind === 'pan';
  const node: PhysicalCard = {
    InputMode: s.inputMode,
    AuthenticationMethod: s.authenticationMethod,
    ...(s.brandId !== undefined ? { BrandId: s.brandId } : {}),
    ...(s.issuerId !== undefined ? { IssuerId: s.issuerId } : {}),
    ...(typed ? { CardNumber: card.data } : { TrackTwoData: card.data }),
    EncryptedCardData: {
      EncryptionType: 'Dukpt3DesCBC',
      InitializationVector: card.iv,
      ...(typed ? { CardNumberKSN: card.ksn } : { TrackTwoDataKSN: card.ksn }),
      IsDataInTLVFormat: card.isTlv,
    },
    ...(typed && s.expiry ? { ExpirationDate: `${s.expiry.slice(0, 2)}/20${s.expiry.slice(2)}` } : {}),
    ...(card.emvData ? { EmvData: card.emvData } : {}),
    ...(s.panSequenceNumber !== undefined ? { PanSequenceNumber: Number(s.panSequenceNumber) } : {}),
    ...(s.isFallback ? { IsFallback: true } : {}),
    ...(card.pinBlock ? { PinBlock: { EncryptedPinBlock: card.pinBlock.block, EncryptionType: 'Dukpt3Des', KsnIdentification: card.pinBlock.ksn } } : {}),
  };
  return node;
}

/** The omni request, field by field as DESIGN.md lists it. Always `Capture: true`. */
export function saleRequest(order: SaleOrder, t: TerminalIdentity): PhysicalSaleRequest {
  const r = order.request;
  if (order.summary.productId === undefined) throw new Error('the card has no product: the tables chose none');
  return {
    MerchantOrderId: order.merchantOrderId,
    Payment: {
      SubordinatedMerchantId: t.subordinatedMerchantId,
      Type: TYPES[r.method],
      Amount: r.amount,
      Installments: r.installments,
      Interest: r.interest,
      Capture: true,
      SoftDescriptor: t.softDescriptor,
      ProductId: order.summary.productId,
      PaymentDateTime: order.paymentDateTime.toISOString(),
      [NODES[r.method]]: cardNode(order, order.card),
      PinPadInformation: {
        TerminalId: t.terminalId,
        SerialNumber: t.pinpadSerial,
        PhysicalCharacteristics: t.physicalCharacteristics,
        ReturnDataInfo: '00',
      },
    },
  };
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** The acquirer's sale outcome, in the engine's terms. */
export function hostOutcome(outcome: SaleOutcome, answer?: PhysicalSaleResponse): HostSaleOutcome {
  const p = answer?.Payment;
  const rc = (o: { returnCode?: string | number; returnMessage?: string }) => ({
    ...(o.returnCode !== undefined ? { returnCode: String(o.returnCode) } : {}),
    ...(o.returnMessage !== undefined ? { returnMessage: o.returnMessage } : {}),
  });
  switch (outcome.kind) {
    case 'approved':
      return {
        kind: 'approved',
        paymentId: outcome.paymentId,
        ...rc(outcome),
        ...(text(p?.AuthorizationCode) ? { authorizationCode: text(p?.AuthorizationCode) as string } : {}),
        ...(text(p?.ProofOfSale) ? { nsu: text(p?.ProofOfSale) as string } : {}),
        ...(text(p?.EmvResponseData) ? { emvResponse: text(p?.EmvResponseData) as string } : {}),
        receipt: {
          fields: (p?.ReceiptInformation ?? []).map((f) => ({ field: f.Field, label: f.Label, content: f.Content })),
          messages: (p?.PrintMessage ?? []).map((m) => ({ position: m.Position, message: m.Message })),
        },
      };
    case 'anomaly':
      return { kind: 'anomaly', paymentId: outcome.paymentId, reason: outcome.reason };
    case 'declined':
      return { kind: 'declined', ...(outcome.paymentId ? { paymentId: outcome.paymentId } : {}), ...rc(outcome) };
    case 'refused':
      return { kind: 'refused', status: outcome.status, ...rc(outcome) };
    case 'not-sent':
      return { kind: 'not-sent' };
    case 'unknown':
      return { kind: 'unknown', reason: outcome.reason, ...(outcome.paymentId ? { paymentId: outcome.paymentId } : {}) };
  }
}

/** Card sales on the omni API: the request built from the order, the answer read by the sale table. */
export class OmniSaleAdapter implements SaleAuthorizationPort {
  readonly #client: OmniClient;
  readonly #terminal: TerminalIdentity;

  readonly #onVersion: ((version: string) => void) | undefined;

  /** `onInitializationVersion`: told the `InitializationVersion` every sale answer carries. */
  constructor(client: OmniClient, terminal: TerminalIdentity, onInitializationVersion?: (version: string) => void) {
    this.#client = client;
    this.#terminal = terminal;
    this.#onVersion = onInitializationVersion;
  }

  async authorize(order: SaleOrder): Promise<HostSaleOutcome> {
    let request;
    try {
      request = saleRequest(order, this.#terminal);
    } catch (e) {
      return { kind: 'refused', status: 0, returnMessage: (e as Error).message };
    }
    const { outcome, answer } = await this.#client.authorize(request);
    const version = answer?.Payment.InitializationVersion;
    if (version !== undefined && version !== null) this.#onVersion?.(String(version));
    return hostOutcome(outcome, answer);
  }
}
