import type {
  InputMode,
  PaymentFacilitator,
  PhysicalCard,
  PhysicalSaleRequest,
  PhysicalSaleResponse,
} from './types.js';
import type { OmniClient } from './client.js';
import type { SaleOutcome } from './outcomes.js';
import { OmniposError } from '../../core/index.js';
import type {
  EncryptedCard,
  SaleAuthorizationPort,
  SaleOrder,
  CardSummary,
  HostSaleOutcome,
  PaymentMethod,
} from '../../engine/index.js';

export interface TerminalIdentity {
  subordinatedMerchantId: string;
  terminalId: string;
  /** The pinpad's serial number (GIX). */
  pinpadSerial: string;
  physicalCharacteristics:
    'PinPadWithChipReaderWithoutSamAndContactless' | 'PinPadWithChipReaderWithoutSamModule' | 'PinPadWithoutChipReader';
  softDescriptor: string;
  /** The merchant's sub-acquirer data (`terminal.paymentFacilitator`), sent on every sale when present. */
  paymentFacilitator?: PaymentFacilitator;
}

const TYPES: Record<PaymentMethod, 'PhysicalCreditCard' | 'PhysicalDebitCard' | 'PhysicalVoucherCard'> = {
  credit: 'PhysicalCreditCard',
  debit: 'PhysicalDebitCard',
  voucher: 'PhysicalVoucherCard',
};

const NODES = { credit: 'CreditCard', debit: 'DebitCard', voucher: 'VoucherCard' } as const;

/**
 * The sale's `InputMode` for what the pinpad read. The manual's enum has no contactless-stripe
 * value (pt page line 1431: "Enum: Typed, MagStripe, Emv, ContactlessEmv", beside PP_GetCard's
 * "05 - Chip sem contato simulando tarja"): such a read carries tracks and no chip data, so it goes
 * as `MagStripe` with its tracks (a question for homologation, docs/decisions.md).
 */
export function wireInputMode(mode: CardSummary['inputMode']): InputMode {
  return mode === 'ContactlessMagStripe' ? 'MagStripe' : mode;
}

/** Why a request for this read cannot be sent (a required field the read or the tables did not give), or undefined. */
export function missingCardFields(s: CardSummary): string | undefined {
  const missing: string[] = [];
  if (s.brandId === undefined) missing.push('BrandId (the tables gave no brand)');
  if (s.issuerId === undefined) missing.push('IssuerId (the tables gave no issuer)');
  if (!s.expiry || !/^(0[1-9]|1[0-2])\d{2}$/.test(s.expiry))
    missing.push('ExpirationDate (the read gave no valid expiry)');
  return missing.length > 0 ? `the sale cannot be sent without ${missing.join(', ')}` : undefined;
}

/**
 * The card node of a request (ciphertext only), from what the pinpad read; voids send it too.
 * Every field the manual marks required for the input mode (Conecta pt page, "Requisição" tables):
 * `ExpirationDate` MM/yyyy for every mode (line 1426, 3365), `BrandId` and `IssuerId` (3366-3367),
 * `SecurityCodeStatus` on typed entry (1427), `TrackOneData` with `TrackOneDataKSN` on stripe when
 * the card has a track 1 (3370, example 3441-3446). Throws (before anything is sent) when the
 * read or the tables left one of them out.
 */
export function cardNode(order: Pick<SaleOrder, 'summary'>, card: EncryptedCard): PhysicalCard {
  const s = order.summary;
  const missing = missingCardFields(s);
  if (missing) throw new OmniposError('INVALID_ARGUMENT', missing, { reason: 'missing-card-fields' });
  const typed = card.kind === 'pan';
  const expiry = s.expiry as string;
  const track1 = !typed && card.track1 ? card.track1 : undefined;
  const node: PhysicalCard = {
    InputMode: wireInputMode(s.inputMode),
    AuthenticationMethod: s.authenticationMethod,
    ExpirationDate: `${expiry.slice(0, 2)}/20${expiry.slice(2)}`,
    BrandId: s.brandId as number,
    IssuerId: s.issuerId as number,
    // This terminal never asks for the CVV: typed entry is allowed only where the tables do not want it.
    ...(typed ? { SecurityCodeStatus: 'Nonexistent' as const } : {}),
    ...(track1 ? { TrackOneData: track1.data } : {}),
    ...(typed ? { CardNumber: card.data } : { TrackTwoData: card.data }),
    EncryptedCardData: {
      EncryptionType: 'Dukpt3DesCBC',
      InitializationVector: card.iv,
      ...(track1 ? { TrackOneDataKSN: track1.ksn } : {}),
      ...(typed ? { CardNumberKSN: card.ksn } : { TrackTwoDataKSN: card.ksn }),
      IsDataInTLVFormat: card.isTlv,
    },
    ...(card.emvData ? { EmvData: card.emvData } : {}),
    ...(s.panSequenceNumber !== undefined ? { PanSequenceNumber: Number(s.panSequenceNumber) } : {}),
    ...(s.isFallback ? { IsFallback: true } : {}),
    ...(card.pinBlock
      ? {
          PinBlock: {
            EncryptedPinBlock: card.pinBlock.block,
            EncryptionType: 'Dukpt3Des',
            KsnIdentification: card.pinBlock.ksn,
          },
        }
      : {}),
  };
  return node;
}

/** `SoftDescriptor`: at most 13 characters (pt page line 1418), no accents or symbols. */
const SOFT_DESCRIPTOR = /^[A-Za-z0-9 ]{1,13}$/;

/** The omni request, field by field (docs/acquirer.md, "The sale request"). Always `Capture: true`. */
export function saleRequest(order: SaleOrder, t: TerminalIdentity): PhysicalSaleRequest {
  const r = order.request;
  if (!SOFT_DESCRIPTOR.test(t.softDescriptor)) {
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `SoftDescriptor "${t.softDescriptor}": at most 13 letters, digits or spaces, no accents or symbols (terminal.softDescriptor)`,
      { reason: 'soft-descriptor' },
    );
  }
  if (order.summary.productId === undefined)
    throw new OmniposError('INVALID_ARGUMENT', 'the card has no product: the tables chose none', {
      reason: 'missing-card-fields',
    });
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
      ...(t.paymentFacilitator ? { PaymentFacilitator: t.paymentFacilitator } : {}),
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
          // The manual prints some contents as numbers (`"Content": 123456`, conecta pt 7818-7853): text here.
          fields: (p?.ReceiptInformation ?? []).map((f) => ({
            field: String(f.Field),
            label: String(f.Label),
            content: String(f.Content),
          })),
          messages: (p?.PrintMessage ?? []).map((m) => ({ position: String(m.Position), message: String(m.Message) })),
        },
      };
    case 'anomaly':
      return { kind: 'anomaly', paymentId: outcome.paymentId, reason: outcome.reason };
    case 'declined':
      return {
        kind: 'declined',
        ...(outcome.paymentId ? { paymentId: outcome.paymentId } : {}),
        ...rc(outcome),
        ...(outcome.unclear ? { unclear: outcome.unclear } : {}),
      };
    case 'refused':
      return {
        kind: 'refused',
        status: outcome.status,
        ...rc(outcome),
        ...(outcome.unclear ? { unclear: outcome.unclear } : {}),
      };
    case 'not-sent':
      return { kind: 'not-sent' };
    case 'unknown':
      return {
        kind: 'unknown',
        reason: outcome.reason,
        ...(outcome.paymentId ? { paymentId: outcome.paymentId } : {}),
      };
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
