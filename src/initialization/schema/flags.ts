/**
 * The Boolean members of the initialization tables, by table, as the acquirer's initialization
 * answer names them (002, "Terminal initialization response"; the public manual's "Baixa de
 * parâmetros" schema gives each its meaning). Data, walked by the schema and by the flag bitmask.
 */

/** Flags shared by `Bins`, `Issuers` and `Parameters` (one terminal-wide, per issuer, per range). */
export const COMMON_FLAGS = [
  'AllowFallbackWhenChipReadingFails',
  'AllowChargingMoedeiroFromCash',
  'AllowPurchaseWithCompreESaque',
  'AllowOfflineFunctionExceptForEMVCard',
  'AllowTypingCardNumber',
  'MaskCardNumberUsingLast4Digits',
  'MaskCardNumberUsingFirst6AndLast4Digits',
  'AllowPrintCardHolderBalance',
  'AllowDisplayCardHolderBalance',
  'AllowPrintingPartialCardNumberInReceipt',
  'RestrictSaleWithDuplicateValueWhenPostdated',
  'RestrictSaleWithDuplicateValue',
  'RequiresPassword',
  'InterpretsLastDigitOfSecurityCode',
  'RequiresPasswordExceptForEMVCard',
  'EnableAdditionalSecurityCodeOptions_Unreadable_NoCode',
  'RequiresSecurityCodeWhenMagneticTrackIsRead',
  'RequiresSecurityCodeWhenCardNumberIsTyped',
  'RequiresTypingLast4Digits',
] as const;

/** Financing flags shared by `Bins`, `Issuers` and `Products`. */
export const FINANCING_FLAGS = [
  'AllowCaptureOfFirstInstallmentValue',
  'AllowCaptureOfDownpaymentValue',
  'AllowGuaranteeHandling',
  'AllowPostdatingTheFirstInstallmentForSaleAndCDCQuery',
  'AllowPostdating',
  'AllowCDCSale',
  'AllowFinancingByStore',
  'AllowFinancingByCreditCardCompany',
] as const;

/** `Bins[]`: common, financing and card-checking flags, in the order of the manual. */
export const BIN_FLAGS = [
  ...COMMON_FLAGS,
  ...FINANCING_FLAGS,
  'ValidateCardTrack1',
  'DoNotValidateCardModule10',
  'CheckExpiryDateWhenCardNumberIsTyped',
  'CheckExpiryDateWhenMagneticTrackIsRead',
] as const;

/** `Issuers[]`. */
export const ISSUER_FLAGS = [...COMMON_FLAGS, ...FINANCING_FLAGS, 'RequiresChipReader', 'RequiresPinpad'] as const;

/** `Parameters[]`. */
export const PARAMETER_FLAGS = [
  ...COMMON_FLAGS,
  'CapturesServiceFee',
  'AllowCancellationWithValueGreaterThanTheValueOfTheSale',
  'CaptureBoardingFee',
] as const;

/** `Products[]`. */
export const PRODUCT_FLAGS = [
  'AllowTransactionWithContactlessCard',
  'IsFinancialProduct',
  'AllowOfflineAuthorizationForEMVCard',
  'AllowReprintReceipt',
  'AllowPrintReceipt',
  'AllowOfflineAuthorizationForContactlessCard',
  'AllowCancel',
  'AllowUndo',
  ...FINANCING_FLAGS,
] as const;

/** `Emv[]`. */
export const EMV_FLAGS = [
  'InvalidateFunctionIfCardIsOnBlacklist',
  'RequireBINToBeInCardRangeTable',
  'StoreTransactionsRejectedByTerminalAppAndSendToHost',
  'AllowOnlineAuthorizationTransactionRequest',
  'AllowExtendedCardHolderName',
] as const;

/** `Acquirer`. */
export const ACQUIRER_FLAGS = [
  'EnableContaclessCardReader',
  'LockAppFunctionsExceptInitialization',
  'HasChipReader',
  'HasMagneticTrackReader',
  'HasKeyboard',
] as const;

/**
 * Other spellings the acquirer's own documents use for the same member, accepted on input and
 * stored under the name on the left of this map's values (the manual's schema misspells two).
 */
export const FLAG_ALIASES: Readonly<Record<string, string>> = {
  MaskCardNumberUsingFirst6AndLas4Digits: 'MaskCardNumberUsingFirst6AndLast4Digits',
  Option03BiAllowPrintingPartialCardNumberInReceipt07: 'AllowPrintingPartialCardNumberInReceipt',
};

export type BinFlag = (typeof BIN_FLAGS)[number];
export type IssuerFlag = (typeof ISSUER_FLAGS)[number];
export type ParameterFlag = (typeof PARAMETER_FLAGS)[number];
