/**
 * Bodies of the omni (terminal) API, as the manual and 002 show them. Only what the terminal
 * sends or reads is typed; answers keep every other member the host adds.
 */

/**
 * The sale's `InputMode` enum as the manual's request tables give it (Conecta pt page, e.g. line
 * 1431 and 3368: "Enum: Typed, MagStripe, Emv, ContactlessEmv"); there is no contactless-stripe value.
 */
export type InputMode = 'Typed' | 'MagStripe' | 'Emv' | 'ContactlessEmv';
export type AuthenticationMethod = 'NoPassword' | 'OnlineAuthentication' | 'OfflineAuthentication';
export type PhysicalPaymentType = 'PhysicalCreditCard' | 'PhysicalDebitCard' | 'PhysicalVoucherCard';
export type PhysicalCharacteristics =
  | 'WithoutPinPad'
  | 'PinPadWithoutChipReader'
  | 'PinPadWithChipReaderWithoutSamModule'
  | 'PinPadWithChipReaderWithSamModule'
  | 'NotCertifiedPinPad'
  | 'PinPadWithChipReaderWithoutSamAndContactless'
  | 'PinPadWithChipReaderWithSamModuleAndContactless';

export interface EncryptedCardData {
  EncryptionType: 'Dukpt3DesCBC';
  InitializationVector: string;
  /** The KSN track 1 was encrypted under (GTK's PP_TRK1KSN), beside TrackOneData. */
  TrackOneDataKSN?: string;
  TrackTwoDataKSN?: string;
  CardNumberKSN?: string;
  IsDataInTLVFormat?: boolean;
}

export interface PinBlock {
  EncryptedPinBlock: string;
  EncryptionType: 'Dukpt3Des';
  KsnIdentification: string;
}

/** The card node (`CreditCard`, `DebitCard` or `VoucherCard`). Card data only as ciphertext. */
export interface PhysicalCard {
  InputMode: InputMode;
  AuthenticationMethod: AuthenticationMethod;
  /** MM/yyyy, from the card read; required for every input mode. */
  ExpirationDate: string;
  /** From the tables (Product and BIN); required: a sale without them is refused before it is sent. */
  BrandId: number;
  IssuerId: number;
  /** Encrypted track 1 (GTK), stripe reads of a card that has one. */
  TrackOneData?: string;
  /** Encrypted track 2 (GTK); stripe and chip. */
  TrackTwoData?: string;
  /** Encrypted typed PAN (EBX). */
  CardNumber?: string;
  EncryptedCardData?: EncryptedCardData;
  EmvData?: string;
  PinBlock?: PinBlock;
  PanSequenceNumber?: number | string;
  SecurityCodeStatus?: 'Collected' | 'Unreadable' | 'Nonexistent';
  IsFallback?: boolean;
}

export interface PinPadInformation {
  TerminalId: string;
  SerialNumber: string;
  PhysicalCharacteristics: PhysicalCharacteristics;
  /** The shared library's get-info status: `"00"` in every example of the manual. */
  ReturnDataInfo: string;
}

export interface PhysicalSaleRequest {
  MerchantOrderId: string;
  Payment: {
    SubordinatedMerchantId: string;
    Type: PhysicalPaymentType;
    Amount: number;
    Installments: number;
    Interest?: 'ByMerchant' | 'ByIssuer';
    /** Always true (docs/acquirer.md, "The sale request"): the host's default false would make a pre-authorization. */
    Capture: true;
    SoftDescriptor?: string;
    ProductId: number;
    PaymentDateTime: string;
    CreditCard?: PhysicalCard;
    DebitCard?: PhysicalCard;
    VoucherCard?: PhysicalCard;
    PinPadInformation: PinPadInformation;
    /** A sub-acquirer's data (pt:2248-2259), sent when the merchant has it configured. */
    PaymentFacilitator?: PaymentFacilitator;
  };
}

/** `Payment.PaymentFacilitator` (pt:2248-2259; example pt:2196-2210: every field as text). */
export interface PaymentFacilitator {
  EstablishmentCode: string;
  TerminalAcquirerId: string;
  SubEstablishment: {
    EstablishmentCode: string;
    Mcc: string;
    Address: string;
    City: string;
    State: string;
    PostalCode: string;
    PhoneNumber: string;
    CountryCode: string;
    DocumentType: string;
    DocumentNumber: string;
  };
}

export interface Link {
  Method: string;
  Rel: string;
  Href: string;
}

/** `Payment` of a sale answer or query. Numbers as the host sends them. */
export interface PhysicalPayment {
  PaymentId: string;
  Status: number;
  ConfirmationStatus?: number;
  ReturnCode?: string | number;
  ReturnMessage?: string;
  Amount?: number;
  AuthorizationCode?: string;
  ProofOfSale?: string;
  EmvResponseData?: string;
  InitializationVersion?: number;
  PrintMessage?: { Position: string; Message: string }[];
  /** `Content` is a number in some of the manual's examples (conecta pt 7818-7853). */
  ReceiptInformation?: { Field: string; Label: string; Content: string | number }[];
  Links?: Link[];
  [more: string]: unknown;
}

export interface PhysicalSaleResponse {
  MerchantOrderId: string;
  Payment: PhysicalPayment;
  [more: string]: unknown;
}

/** Chip data sent with a confirmation (spelled `IssuerScriptResults`). */
export interface ConfirmChipData {
  EmvData: string;
  IssuerScriptResults?: string;
}

/** Chip data sent with an undo (spelled `IssuerScriptsResults` on undo, as the manual does). */
export interface UndoChipData {
  EmvData: string;
  IssuerScriptsResults?: string;
}

/** Answer of confirm and undo. */
export interface OperationAnswer {
  ConfirmationStatus?: number;
  Status?: number;
  ReturnCode?: string | number;
  ReturnMessage?: string;
  Links?: Link[];
  [more: string]: unknown;
}

export interface VoidRequest {
  MerchantVoidId: string;
  MerchantVoidDate: string;
  /** Partial voids: at most the sale's amount minus what was voided before. */
  VoidAmount: number;
  Card: PhysicalCard;
}

/** Answer of a void create, confirm, undo or query. */
export interface VoidAnswer {
  VoidId?: string;
  /** 0 not finished, 1 authorized, 2 denied, 3 confirmed, 4 undone. */
  CancellationStatus?: number;
  Status?: number;
  ReturnCode?: string | number;
  ReturnMessage?: string;
  [more: string]: unknown;
}
