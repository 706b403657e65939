/**
 * Pure cryptographic codecs: DUKPT (TDES per X9.24-1:2009, AES per X9.24-3:2017), PIN blocks (ISO 9564-1),
 * data and PIN encryption under DUKPT keys, wallet card data (RSA), check digits, PAN masking and hashing, KCVs.
 * No I/O, no clock, no globals. Every bad input is an OmniposError (CODEC_INVALID_INPUT, CRYPTO_INVALID_KEY,
 * PINBLOCK_INVALID).
 */
export { toHex, toBytes, xor, wipe, type BytesLike, type BytesRule } from './bytes.js';
export { desEcb, tdesEcb, tdesCbc, aesEcb, aesCbc, DES_BLOCK, AES_BLOCK } from './ciphers.js';
export {
  parseKsn,
  formatKsn,
  withCounter,
  nextCounter,
  countOnes,
  isValidCounter,
  KSN_BYTES,
  COUNTER_BITS,
  COUNTER_MAX,
  MAX_COUNTER_ONES,
  DEVICE_ID_MAX,
  type Ksn,
  type KsnLike,
  type KsnFields,
  type ParseKsnOptions,
} from './ksn.js';
export {
  deriveIpek,
  deriveTransactionKey,
  pinVariant,
  macVariant,
  dataVariant,
  pinKey,
  dataKey,
  macKey,
  deriveTdesKeys,
  type Direction,
  type TdesDukptKeys,
} from './dukpt-tdes.js';
export {
  encryptData,
  decryptData,
  stripZeroPadding,
  zeroPad,
  encryptPinBlock,
  decryptPinBlock,
  retailMac,
  type CipherAlgorithm,
  type DataCipherOptions,
} from './data-cipher.js';
export {
  encodePinBlock,
  decodePinBlock,
  panField,
  checkPan,
  PIN_BLOCK_FORMATS,
  PIN_BLOCK_LAYOUTS,
  type PinBlockFormat,
  type PinBlockProblem,
  type EncodePinBlockInput,
  type DecodePinBlockInput,
  type RandomSource,
} from './pinblock.js';
export {
  panField4,
  checkPan4,
  encipherFormat4,
  decipherFormat4,
  encryptPin,
  decryptPin,
  type EncryptPinInput,
  type DecryptPinInput,
  type EncryptedPin,
} from './pinblock-format4.js';
export {
  encryptCardData,
  decryptCardData,
  checkCardData,
  walletPublicKey,
  generateWalletKeyPair,
  WALLET_RSA_BITS,
  type WalletCardData,
} from './card-data.js';
export {
  luhnCheckDigit,
  isLuhnValid,
  cpfCheckDigits,
  isValidCpf,
  cnpjCheckDigits,
  isValidCnpj,
  isValidDocument,
  stripDocument,
} from './check-digits.js';
export { maskPan, panHash } from './pan.js';
export { kcv, type KcvOptions } from './kcv.js';
export { aesCmac } from './cmac.js';
export {
  parseAesKsn,
  deriveAesDukptKey,
  deriveAesInitialKey,
  deriveAesTransactionKey,
  deriveAesWorkingKey,
  deriveAesKeys,
  aesUsageOf,
  aesDerivationData,
  aesBdkTypeOf,
  aesKeyTypeBytes,
  checkAesWorkingKeyType,
  AES_DUKPT_KEY_TYPES,
  AES_BDK_TYPES,
  AES_KEY_TYPES,
  AES_DUKPT_USAGE,
  AES_KSN_BYTES,
  AES_MAX_COUNTER_ONES,
  type AesKsn,
  type AesKsnLike,
  type AesKeyType,
  type AesBdkType,
  type AesKeysOptions,
  type AesKeyUsage,
  type AesDukptKeys,
} from './dukpt-aes.js';
export { dukptEncryptData, dukptDecryptData, type DukptKeySource, type DukptDataOptions } from './dukpt-data.js';
