import { Fields } from './http-kit.js';
import type { StrictRule } from './scenario.js';

export const PAYMENT_TYPES = {
  PhysicalCreditCard: 'CreditCard',
  PhysicalDebitCard: 'DebitCard',
  PhysicalVoucherCard: 'VoucherCard',
} as const;
/** The sale's InputMode enum (CONECTA_PT 1431, 2232: "Enum: Typed, MagStripe, Emv, ContactlessEmv"). */
export const INPUT_MODES = ['Typed', 'MagStripe', 'Emv', 'ContactlessEmv'] as const;
/**
 * A void's card node names how the card was read: the void's own enum adds `ContactlessMagStripe`
 * (CONECTA_PT 8030: "Typed", "MagStripe", "Emv", "ContactlessMagStripe", "ContactlessEmv").
 */
export const VOID_INPUT_MODES = [...INPUT_MODES, 'ContactlessMagStripe'] as const;
export const AUTH_METHODS = ['NoPassword', 'OnlineAuthentication', 'OfflineAuthentication'] as const;
export const PHYSICAL_CHARACTERISTICS = [
  'WithoutPinPad',
  'PinPadWithoutChipReader',
  'PinPadWithChipReaderWithoutSamModule',
  'PinPadWithChipReaderWithSamModule',
  'NotCertifiedPinPad',
  'PinPadWithChipReaderWithoutSamAndContactless',
  'PinPadWithChipReaderWithSamModuleAndContactless',
] as const;

export const ORDER_ID = /^\d{1,15}$/;

/** A sale request whose required fields are present and well-formed. */
export interface ValidSale {
  merchantOrderId: string;
  subordinatedMerchantId: string;
  type: keyof typeof PAYMENT_TYPES;
  cardNode: string;
  card: Record<string, unknown>;
  amount: number;
  installments: number;
  capture: boolean;
  inputMode: (typeof INPUT_MODES)[number];
  authenticationMethod: (typeof AUTH_METHODS)[number];
  terminalId: string;
}

/**
 * The required fields of `POST /1/physicalSales` (002 "Terminal (omni) resources" and the
 * manual's tables), each refusal naming the field: a strict host, never kinder than the real one.
 */
export function validateSale(
  body: Record<string, unknown>,
  strict: (rule: StrictRule) => boolean = () => true,
): ValidSale {
  const f = new Fields(body);
  const merchantOrderId = f.string('MerchantOrderId', { re: ORDER_ID, hint: 'must be 1 to 15 digits' });
  f.object('Payment');
  const subordinatedMerchantId = f.string('Payment.SubordinatedMerchantId');
  const type = f.string('Payment.Type', { oneOf: Object.keys(PAYMENT_TYPES) }) as
    keyof typeof PAYMENT_TYPES | undefined;
  f.string('Payment.PaymentDateTime', { re: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, hint: 'must be an ISO 8601 date-time' });
  const amount = f.int('Payment.Amount', { min: 1, max: 999_999_999_999_999 });
  const installments = f.int('Payment.Installments', { min: 1, max: 99, optional: true }) ?? 1;
  f.string('Payment.Interest', { oneOf: ['ByMerchant', 'ByIssuer'], optional: true });
  const capture = f.bool('Payment.Capture', { optional: true }) ?? false;
  f.int('Payment.ProductId', { min: 0 });
  // Size 13 (CONECTA_PT 1418); the statement prints it after the merchant's name: letters, digits and spaces only.
  if (strict('soft-descriptor'))
    f.string('Payment.SoftDescriptor', {
      re: /^[A-Za-z0-9 ]{1,13}$/,
      hint: 'at most 13 letters A-Z, digits or spaces',
      optional: true,
    });
  else f.string('Payment.SoftDescriptor', { re: /^.{0,13}$/, hint: 'at most 13 characters', optional: true });
  const terminalId = f.string('Payment.PinPadInformation.TerminalId');
  f.string('Payment.PinPadInformation.SerialNumber', { re: /^.{1,20}$/, hint: 'at most 20 characters' });
  f.string('Payment.PinPadInformation.PhysicalCharacteristics', { oneOf: PHYSICAL_CHARACTERISTICS });
  f.string('Payment.PinPadInformation.ReturnDataInfo');
  const cardNode = type ? PAYMENT_TYPES[type] : 'CreditCard';
  const cp = `Payment.${cardNode}`;
  const card = f.object(cp);
  let inputMode: ValidSale['inputMode'] | undefined;
  let authenticationMethod: ValidSale['authenticationMethod'] | undefined;
  if (card) {
    inputMode = f.string(`${cp}.InputMode`, { oneOf: INPUT_MODES }) as ValidSale['inputMode'] | undefined;
    authenticationMethod = f.string(`${cp}.AuthenticationMethod`, { oneOf: AUTH_METHODS }) as
      ValidSale['authenticationMethod'] | undefined;
    f.int(`${cp}.BrandId`);
    f.int(`${cp}.IssuerId`);
    // "Sim" for every input mode (CONECTA_PT 1426, 2229, 2520, 2685…): from PP_GetCard, whatever read the card.
    f.string(`${cp}.ExpirationDate`, {
      re: /^(0[1-9]|1[0-2])\/\d{4}$/,
      hint: 'must be MM/yyyy',
      optional: inputMode !== 'Typed' && !strict('expiration-date'),
    });
    // "Sim" on the typed sale (CONECTA_PT 1427, 1835): Collected, Unreadable or Nonexistent.
    if (inputMode === 'Typed')
      f.string(`${cp}.SecurityCodeStatus`, {
        oneOf: ['Collected', 'Unreadable', 'Nonexistent'],
        optional: !strict('security-code-status'),
      });
    // "Sim" on the stripe sale (CONECTA_PT 3099, 3370), with its KSN beside the track 2's.
    if (inputMode === 'MagStripe' && strict('track-one')) {
      f.string(`${cp}.TrackOneData`, { re: /^([0-9A-Fa-f]{2})+$/, hint: 'must be the encrypted track 1 (hex)' });
      f.string(`${cp}.EncryptedCardData.TrackOneDataKSN`, { re: /^[0-9A-Fa-f]{20}$/, hint: 'must be 20 hex digits' });
    }
    if (inputMode === 'Emv' || inputMode === 'ContactlessEmv')
      f.string(`${cp}.EmvData`, { re: /^([0-9A-Fa-f]{2})+$/, hint: 'must be hex' });
    f.object(`${cp}.EncryptedCardData`);
    if (authenticationMethod === 'OnlineAuthentication') f.object(`${cp}.PinBlock`);
    if (card.IssuerScriptResults !== undefined)
      f.problems.push(`${cp}.IssuerScriptResults: not a member of the card node`);
  }
  f.check();
  return {
    merchantOrderId: merchantOrderId as string,
    subordinatedMerchantId: subordinatedMerchantId as string,
    type: type as ValidSale['type'],
    cardNode,
    card: card as Record<string, unknown>,
    amount: amount as number,
    installments,
    capture,
    inputMode: inputMode as ValidSale['inputMode'],
    authenticationMethod: authenticationMethod as ValidSale['authenticationMethod'],
    terminalId: terminalId as string,
  };
}
